package dev.ingestbench.harness.ab;

import dev.ingestbench.analysis.source.CpuSamplesCsv;
import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.harness.round.RoundFlags;
import dev.ingestbench.harness.spec.ChildFlag;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code ingestbench ab} runs with each build, and the figures it reads from what the run
 * wrote: the consumer alone (synthetic rows, no source server: the pipeline's own cost) and a drain
 * round (publisher, emulators and consumer: what a user runs first).
 */
public enum AbMeasure {
  CONSUMER("consumer", 200_000) {
    @Override
    List<String> args(Path out, long messages) {
      return List.of(
          "consume",
          ChildFlag.SOURCE.is("synthetic"),
          ChildFlag.SYNTHETIC_MESSAGES.is(messages),
          ChildFlag.PROJECT.is("ingestbench-local"),
          ChildFlag.OUTPUT_TABLE.is("bench.rides"),
          ChildFlag.LOCAL_OUTPUT_DIR.is(out));
    }

    @Override
    Map<String, Double> figures(Path out) throws IOException {
      ConsumerResult r = RunJson.read(out.resolve(RunFiles.CONSUMER_RESULT), ConsumerResult.class);
      Map<String, Double> f = new LinkedHashMap<>();
      f.put(ROWS_PER_CPU_SECOND, r.rowsWritten() / r.cpuSeconds());
      double jit = jitSeconds(out.resolve(RunFiles.CONSUMER_SAMPLES));
      if (jit < r.cpuSeconds()) { // NaN (not recorded) is not less
        f.put(ROWS_PER_CPU_SECOND_WITHOUT_JIT, r.rowsWritten() / (r.cpuSeconds() - jit));
      }
      f.put(ROWS_PER_SECOND, r.rowsWritten() / r.seconds());
      return f;
    }
  },
  ROUND("round", 100_000) {
    @Override
    List<String> args(Path out, long messages) {
      return List.of(
          "round",
          RoundFlags.MESSAGES,
          Long.toString(messages),
          RoundFlags.LIVE_MESSAGES,
          "0",
          RoundFlags.OUT,
          out.toString(),
          RoundFlags.FORCE);
    }

    @Override
    Map<String, Double> figures(Path out) throws IOException {
      RoundSummary s = RunJson.read(out.resolve(RunFiles.SUMMARY), RoundSummary.class);
      Map<String, Double> f = new LinkedHashMap<>();
      f.put(ROWS_PER_CPU_SECOND, s.rowsPerCpuSecond());
      if (s.rowsPerCpuSecondWithoutJit() != null) {
        f.put(ROWS_PER_CPU_SECOND_WITHOUT_JIT, s.rowsPerCpuSecondWithoutJit());
      }
      f.put(ROWS_PER_SECOND, s.rowsPerSecond());
      if (s.harnessShare() != null) {
        f.put(HARNESS_SHARE, s.harnessShare());
      }
      return f;
    }
  };

  /**
   * The JIT compiler threads' CPU-seconds over a consumer's samples; NaN where a second (or the
   * file, or every sample) has none.
   */
  static double jitSeconds(Path samples) throws IOException {
    List<CpuSamplesCsv.Sample> read =
        Files.exists(samples) ? CpuSamplesCsv.read(samples) : List.of();
    // A second without the figure is NaN, and so is the sum.
    return read.isEmpty()
        ? Double.NaN
        : read.stream().mapToDouble(CpuSamplesCsv.Sample::jitCpuSeconds).sum();
  }

  /** Rows written per second of the consumer's CPU: the code's cost, least moved by the machine. */
  public static final String ROWS_PER_CPU_SECOND = "rows per consumer CPU-second";

  /**
   * The same without the CPU of the JVM's JIT compiler threads: a short run's warm-up, which moves
   * with how much code a build makes the JVM compile, not with what each row costs once compiled.
   * Only where both builds record it (a baseline from before 2026-11-29 does not).
   */
  public static final String ROWS_PER_CPU_SECOND_WITHOUT_JIT =
      "rows per consumer CPU-second without the JIT";

  /**
   * What the emulators, broker, publishers and the round's own JVM used of the machine over the
   * steady window: lower is better (the pipeline was measured with more of the machine to itself).
   */
  public static final String HARNESS_SHARE = "the harness's share of the machine";

  /** Rows written per second of wall time (a round's steady window). */
  public static final String ROWS_PER_SECOND = "rows/s";

  private final String word;
  private final long defaultMessages;

  AbMeasure(String word, long defaultMessages) {
    this.word = word;
    this.defaultMessages = defaultMessages;
  }

  /** How {@code --measure} names it. */
  public String word() {
    return word;
  }

  /** The messages it runs with unless told otherwise. */
  public long defaultMessages() {
    return defaultMessages;
  }

  /** {@code ingestbench}'s arguments for one run writing into {@code out}. */
  abstract List<String> args(Path out, long messages);

  /** Its figures, by name, from what one run wrote into {@code out}. */
  abstract Map<String, Double> figures(Path out) throws IOException;

  /** {@code --measure}'s value. */
  public static AbMeasure of(String word) {
    for (AbMeasure m : values()) {
      if (m.word.equals(word.toLowerCase(Locale.ROOT))) {
        return m;
      }
    }
    throw new IllegalArgumentException(
        "--measure " + word + " is not known; use consumer or round (or give both)");
  }
}
