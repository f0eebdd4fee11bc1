package dev.ingestbench.harness.staged;

import dev.ingestbench.analysis.scenario.StageMeasures;
import dev.ingestbench.scenario.Durations;
import dev.ingestbench.scenario.PlannedStage;
import dev.ingestbench.scenario.ScenarioPlan;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/** The progress lines of {@code ingestbench run}, the same for every target. */
public final class RunLog {
  private RunLog() {}

  public static void say(String format, Object... args) {
    say("run", format, args);
  }

  /** A progress line in {@code voice}'s name: {@code [round] ...}, {@code [run] ...}. */
  public static void say(String voice, String format, Object... args) {
    System.out.println("[" + voice + "] " + String.format(Locale.ROOT, format, args));
  }

  /** Where lines go to be said in {@code voice}'s name, each as it is. */
  public static Consumer<String> lines(String voice) {
    return line -> say(voice, "%s", line);
  }

  /**
   * "Stage 2/3 a-and-b, 1m 10s of 6m: a 9,000 rows/s, b ...; at most 7m left" (what is left: this
   * stage's and the rest's longest).
   */
  public static String stageProgress(
      ScenarioPlan plan, PlannedStage st, Duration elapsed, List<String> rates) {
    Duration left = st.longest().minus(elapsed);
    for (int k = st.index() + 1; k < plan.stages().size(); k++) {
      left = left.plus(plan.stages().get(k).longest());
    }
    return String.format(
        Locale.ROOT,
        "Stage %d/%d %s, %s of %s: %s; at most %s left",
        st.index() + 1,
        plan.stages().size(),
        st.name(),
        Durations.show(elapsed),
        st.hold() != null ? Durations.show(st.hold()) : "max " + Durations.show(st.max()),
        String.join(", ", rates),
        Durations.show(left.isNegative() ? Duration.ZERO : left));
  }

  /**
   * A job's figures at a stage's end: "a 9,998 rows/s (95% CI 9,977 – 10,018, 4 steady s)"; the
   * bounds apart by a spaced dash, as in the report, so a negative low bound (a short, noisy stage)
   * reads as one.
   */
  public static String measured(String job, StageMeasures m) {
    return String.format(
        Locale.ROOT,
        "%s %,.0f rows/s (95%% CI %,.0f – %,.0f, %d steady s)",
        job,
        m.rowsPerSecond().mean(),
        m.rowsPerSecond().ci95Low(),
        m.rowsPerSecond().ci95High(),
        m.steadySeconds());
  }
}
