package dev.ingestbench.analysis.diagnosis;

import dev.ingestbench.analysis.stats.Comparison;
import dev.ingestbench.analysis.stats.PhaseSummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Scaling between consecutive levels of one job window ({@code W1 steady 1}, {@code W1 steady 2},
 * ...): how many writers each level has, and whether a writer joining or leaving changed the rate in
 * proportion. Writers come from {@code --jobs-in} when given, else from the level ratios: the first
 * level has one; a level above the one before has at least one writer more (the nearest whole
 * multiple of the ratio, if larger), a level below at least one fewer. A step is linear when its
 * rate ratio's 95% interval (Welch) contains the writers' ratio, or the ratio is within
 * {@link #LINEAR_TOLERANCE} of it; a smaller step up (or a smaller drop when a writer leaves) is
 * per-table contention.
 */
public final class ScalingVerdicts {
  /** A ratio within 10% of the writers' ratio counts as linear even when the interval is tighter. */
  public static final double LINEAR_TOLERANCE = 0.10;

  private ScalingVerdicts() {}

  /** Estimated writers per level phase, in order; phases outside a window's levels are left out. */
  public static Map<String, Integer> writers(List<PhaseSummary> phases, Map<String, Integer> jobsIn) {
    Map<String, Integer> writers = new LinkedHashMap<>();
    PhaseSummary previous = null;
    for (PhaseSummary p : phases) {
      String name = p.phase().name();
      Integer given = jobsIn.get(name);
      if (given != null) {
        writers.put(name, given);
      } else if (previous == null || !sameWindow(previous, p) || !writers.containsKey(previous.phase().name())) {
        writers.put(name, 1);
      } else {
        int before = writers.get(previous.phase().name());
        double ratio = p.rowsPerSecond().mean() / previous.rowsPerSecond().mean();
        int estimate = (int) Math.round(before * ratio);
        writers.put(name, ratio >= 1 ? Math.max(before + 1, estimate) : Math.max(1, Math.min(before - 1, estimate)));
      }
      previous = p;
    }
    return writers;
  }

  /** One verdict per consecutive pair of levels in a window whose writers differ. */
  public static List<Verdict> of(List<PhaseSummary> phases, Map<String, Integer> jobsIn) {
    Map<String, Integer> writers = writers(phases, jobsIn);
    List<Verdict> verdicts = new ArrayList<>();
    for (int i = 1; i < phases.size(); i++) {
      PhaseSummary p = phases.get(i - 1);
      PhaseSummary q = phases.get(i);
      if (!sameWindow(p, q)) {
        continue;
      }
      boolean given = jobsIn.containsKey(p.phase().name()) && jobsIn.containsKey(q.phase().name());
      int wp = writers.get(p.phase().name());
      int wq = writers.get(q.phase().name());
      if (wp == wq) {
        continue;
      }
      Comparison c = Comparison.of(p, q);
      double ratio = 1 + c.differencePct() / 100;
      double low = 1 + c.ci95LowPct() / 100;
      double high = 1 + c.ci95HighPct() / 100;
      double expected = (double) wq / wp;
      String source = given ? "--jobs-in" : "estimated from the level ratios";
      String step = String.format(Locale.ROOT, "%s (%d writer%s, %,.0f rows/s) → %s (%d, %,.0f rows/s): %.2f× (95%% CI"
          + " %.2f–%.2f, Welch p = %.3f) for %.2f× the writers (%s)", p.phase().name(), wp, wp == 1 ? "" : "s",
          p.rowsPerSecond().mean(), q.phase().name(), wq, q.rowsPerSecond().mean(), ratio, low, high, c.pValue(),
          expected, source);
      boolean linear = (low <= expected && expected <= high) || Math.abs(ratio / expected - 1) <= LINEAR_TOLERANCE;
      if (linear) {
        verdicts.add(new Verdict("linear-scaling", q.phase().name(), (wq > wp ? "A writer joining" : "A writer leaving")
            + " scaled linearly: no per-table contention", step));
      } else if (wq > wp ? ratio < expected : ratio > expected) {
        verdicts.add(new Verdict("contention", q.phase().name(), "Per-table contention (sub-linear scaling)", step
            + String.format(Locale.ROOT, "; %.0f%% of proportional", 100 * (wq > wp ? ratio / expected : expected / ratio))));
      }
    }
    return verdicts;
  }

  /** Both are levels of one job window: this class judges them, not the pairwise --jobs-in rule. */
  static boolean sameWindow(PhaseSummary a, PhaseSummary b) {
    String wa = window(a.phase().name());
    return wa != null && wa.equals(window(b.phase().name())) && a.phase().name().contains(" steady")
        && b.phase().name().contains(" steady");
  }

  private static String window(String phase) {
    int space = phase.indexOf(' ');
    return phase.startsWith("W") && space > 1 ? phase.substring(0, space) : null;
  }
}
