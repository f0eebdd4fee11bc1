package dev.ingestbench.harness.round;

import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.report.MachineLoad;
import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.FaultCount;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** What a round says of its results on the console once it is analysed: the round's, each job's. */
final class RoundSummaryLines {
  private RoundSummaryLines() {}

  /** Where a line goes: a format and its arguments. */
  @FunctionalInterface
  interface Say {
    void say(String format, Object... args);
  }

  /**
   * One line per job of a multi-job round: latency percentiles exist only per job.
   *
   * @param left what the job left in its source, as the round's verification read it (the round's
   *     results.jsonl: a job's own directory has no verification); null when not counted
   */
  static void printJob(int j, RoundSummary s, Long left, Path jobDirectory, Say say) {
    say.say(
        "Job %d: written %,d, duplicates %,d, source duplicates %,d, %s, steady %s rows/s, peak"
            + " connections %d, live latency %s -> %s",
        j,
        s.written(),
        s.duplicates(),
        s.sourceDuplicates(),
        lost(s.lost(), left, s.stopReason()),
        num(s.rowsPerSecond()),
        s.peakConnections(),
        s.liveP50LatencyMs() == null
            ? s.liveLatencyNote()
            : String.format(
                Locale.ROOT, "p50 %,d ms, p99 %,d ms", s.liveP50LatencyMs(), s.liveP99LatencyMs()),
        jobDirectory.resolve("report.md"));
  }

  /**
   * @param fed the backlog was fed (--feed): its waiting is the feed's
   * @param searched a max-rate search ran: it said its own limit
   */
  static void print(RoundSummary s, Path out, boolean fed, boolean searched, Say say) {
    counts(s, out, say);
    steady(s, say);
    latency(s, fed, say);
    findings(s, searched, say);
    say.say("Report: %s", out.resolve(RunFiles.REPORT));
  }

  /** Every message accounted for. */
  private static void counts(RoundSummary s, Path out, Say say) {
    if (s.sourceDuplicates() > 0) {
      say.say(
          "The source carried %,d event(s) twice (the same event index under another message id or"
              + " offset): a publisher resent them; not counted as the pipeline's duplicates (%s)",
          s.sourceDuplicates(), out.resolve(RunFiles.REPORT));
    }
    say.say(
        "Published %,d | written %,d | distinct %,d | duplicates %,d | source duplicates %,d |"
            + " dead-lettered %,d | %s",
        s.published(),
        s.written(),
        s.distinctMessageIds(),
        s.duplicates(),
        s.sourceDuplicates(),
        s.deadLettered(),
        lost(s.lost(), s.left(), s.stopReason()));
  }

  /**
   * What the consumers did not account for: lost once they read to the end; a consumer that stopped
   * short (its timeout, its pipeline ended) left some in its source, which its verification counts,
   * so it is not all lost.
   */
  static String lost(long lost, Long left, String stopReason) {
    return !ConsumerResult.notAllLost(lost, left, stopReason)
        ? String.format(Locale.ROOT, "lost %,d", lost)
        : left == null
            ? String.format(
                Locale.ROOT,
                "not accounted for %,d (a consumer stopped short; what it left was not counted)",
                lost)
            : String.format(
                Locale.ROOT,
                "not accounted for %,d (a consumer stopped short: %,d left in the source, as the"
                    + " verification read it)",
                lost,
                left);
  }

  /** The steady window: the rates, and who used the machine. */
  private static void steady(RoundSummary s, Say say) {
    say.say(
        "Steady state: %s rows/s, %s rows/s per vCPU, %s rows per consumer CPU-second, consumer CPU %s",
        num(s.rowsPerSecond()),
        num(s.rowsPerSecondPerVcpu()),
        num(s.rowsPerCpuSecond()),
        s.cpuUtilisation() == null
            ? "n/a"
            : String.format(Locale.ROOT, "%.0f%%", 100 * s.cpuUtilisation()));
    if (s.consumerJitShare() != null) {
      say.say(
          "Of the consumer's CPU over the steady window, its JIT compiler took %.0f%% (the JVM"
              + " compiling its own code; a worker that runs for hours has done that): %s rows per"
              + " consumer CPU-second without it",
          100 * s.consumerJitShare(), num(s.rowsPerCpuSecondWithoutJit()));
    }
    if (s.consumerShare() != null) {
      say.say(
          "Of the machine over the steady window: the pipeline %.1f%%, the harness %.1f%% (emulators,"
              + " broker, publishers, this JVM: on Dataflow they run elsewhere)",
          100 * s.consumerShare(), 100 * s.harnessShare());
    }
    if (s.machineBusyShare() != null) {
      say.say(
          "Machine %.0f%% busy over the steady window: other processes %.0f%%, steal %.0f%%%s",
          100 * s.machineBusyShare(),
          100 * s.otherProcessesShare(),
          100 * s.stealShare(),
          s.otherProcessesShare() + s.stealShare() >= MachineLoad.DISTURBED
              ? ": other work depressed this run's figures (see the diagnosis)"
              : "");
    }
  }

  /** The live messages' latency and the backlog's waiting. */
  private static void latency(RoundSummary s, boolean fed, Say say) {
    if (s.liveP50LatencyMs() != null) {
      say.say(
          "Latency publish -> visible of %,d live messages (published after the consumer caught up): p50 %,d ms, p99 %,d ms",
          s.liveLatencySamples(), s.liveP50LatencyMs(), s.liveP99LatencyMs());
    } else {
      say.say("Latency: %s", s.liveLatencyNote());
    }
    if (s.liveIntendedP99LatencyMs() != null) {
      say.say(
          "Latency intended send -> visible of %,d live messages (the publisher's own delays count"
              + " too): p50 %,d ms, p99 %,d ms, p99.9 %,d ms, max %,d ms",
          s.liveIntendedLatencySamples(),
          s.liveIntendedP50LatencyMs(),
          s.liveIntendedP99LatencyMs(),
          s.liveIntendedP999LatencyMs(),
          s.liveIntendedMaxLatencyMs());
    }
    if (s.backlogP50LatencyMs() != null) {
      say.say(
          "Waiting of %s: p50 %,d ms, p99 %,d ms",
          fed
              ? "the fed backlog (each message in its tranche before it was read)"
              : "the messages published before the consumer caught up",
          s.backlogP50LatencyMs(),
          s.backlogP99LatencyMs());
    }
  }

  /** Faults, the diagnosis, what limited each phase, and what it would cost on Dataflow. */
  private static void findings(RoundSummary s, boolean searched, Say say) {
    for (FaultCount f : s.faults() == null ? List.<FaultCount>of() : s.faults()) {
      say.say("Fault %s", f.describe());
      if (f.warning() != null) {
        say.say("Warning: %s", f.warning());
      }
    }
    if (s.diagnosis() != null && !s.diagnosis().isEmpty()) {
      say.say("Diagnosis: %s (evidence in the report)", String.join("; ", s.diagnosis()));
    }
    if (!searched && s.limitedBy() != null) {
      say.say("Limited by %s: %s", s.limitedBy(), s.limitedByEvidence());
    }
    if (s.liveLimitedBy() != null) {
      say.say("Live phase: %s: %s", s.liveLimitedBy(), s.liveLimitedByEvidence());
    }
    if (s.cost() != null && s.cost().usdPerHour() != null) {
      say.say(
          "On Dataflow in %s: $%.2f an hour at the steady rate, $%.2f per billion rows%s (%s;"
              + " summary.json's cost)",
          s.cost().region(),
          s.cost().usdPerHour(),
          s.cost().usdPerBillionRows(),
          s.cost().notEstimated() == null || s.cost().notEstimated().isEmpty()
              ? ""
              : "; not estimated: " + String.join(", ", s.cost().notEstimated()),
          s.cost().basis());
    }
  }

  private static String num(Double value) {
    return value == null ? "n/a" : Numbers.f0(value);
  }
}
