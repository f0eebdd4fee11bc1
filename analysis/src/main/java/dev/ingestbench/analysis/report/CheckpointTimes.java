package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.source.CpuSamplesCsv;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The pipeline's own waiting on its checkpoints over the steady window, from the consumer's
 * per-second samples of the embedded Flink's checkpoint gauges ({@code consumer_samples.csv}'s
 * {@code checkpoints_completed} and {@code checkpoint_last_ms}). Beam's Flink runner takes one
 * checkpoint at a time: checkpoints that fill the window ran back to back, each as long as the
 * interval or longer. A checkpoint's time runs from its trigger to its last acknowledgement, so
 * backpressure elsewhere lengthens it too; that is why this is named only after every other limit.
 *
 * @param completed checkpoints completed in the window
 * @param busyShare the time they took ÷ the seconds the samples span: each sample's newly completed
 *     checkpoints times the last one's duration (the gauges give only the last)
 * @param longestMs the longest last duration a sample saw
 * @param seconds the seconds the samples span within the window
 * @param job in a round of several jobs, the job these are (the one that checkpointed most); null
 *     for a round of one
 */
record CheckpointTimes(long completed, double busyShare, long longestMs, long seconds, String job) {
  /** Checkpointing this share of the window or more: back to back, the pipeline's own waiting. */
  static final double CHECKPOINT_BOUND = 0.9;

  /**
   * A round's: its consumer's samples, or in a round of several jobs (whose summed samples have no
   * checkpoints) the job that spent the most of the window checkpointing.
   */
  static Optional<CheckpointTimes> of(RoundAnalysis a) {
    Optional<CheckpointTimes> own = of(a.cpu(), a.steady());
    if (own.isPresent()) {
      return own;
    }
    return a.jobSamples().entrySet().stream()
        .flatMap(
            job ->
                of(job.getValue(), a.steady()).stream()
                    .map(
                        c ->
                            new CheckpointTimes(
                                c.completed(),
                                c.busyShare(),
                                c.longestMs(),
                                c.seconds(),
                                job.getKey())))
        .max(Comparator.comparingDouble(CheckpointTimes::busyShare));
  }

  /**
   * None where the samples hold no gauges over the window (another runner, a run of several jobs'
   * combined samples, an older run) or there is no window.
   */
  static Optional<CheckpointTimes> of(List<CpuSamplesCsv.Sample> samples, Optional<Phase> window) {
    if (window.isEmpty()) {
      return Optional.empty();
    }
    long from = window.get().start().getEpochSecond();
    long to = window.get().end().getEpochSecond();
    long before = -1; // the count at the window's start: the last sample stamped <= from
    long baseSecond = -1;
    long last = -1;
    long lastSecond = -1;
    long longest = 0;
    double busyMs = 0;
    for (CpuSamplesCsv.Sample s : samples) {
      long second = s.second().getEpochSecond();
      if (s.checkpointsCompleted() < 0 || second > to) {
        continue;
      }
      if (second <= from) { // a sample stamped t covers [t-1, t)
        before = s.checkpointsCompleted();
        baseSecond = second;
        last = before;
        continue;
      }
      if (last < 0) {
        continue; // no count at the window's start to measure from
      }
      if (s.checkpointsCompleted() > last) {
        busyMs += (s.checkpointsCompleted() - last) * (double) s.checkpointLastMs();
      }
      longest = Math.max(longest, s.checkpointLastMs());
      last = s.checkpointsCompleted();
      lastSecond = second;
    }
    if (before < 0 || lastSecond < 0) {
      return Optional.empty();
    }
    // The samples' own span, not their number: a sampler that skipped a second (it sleeps a second
    // and then asks the emulator) carries two seconds' checkpoints in its next sample.
    long seconds = Math.min(lastSecond - baseSecond, to - from);
    return Optional.of(
        new CheckpointTimes(
            Math.max(0, last - before),
            Math.min(1, busyMs / 1000 / Math.max(1, seconds)),
            longest,
            seconds,
            null));
  }

  boolean bound() {
    return busyShare >= CHECKPOINT_BOUND;
  }

  /**
   * "7 checkpoints completed in 6 s of the steady window, the last of a second up to 311 ms:
   * checkpointing 21% of it".
   */
  String describe() {
    return (job == null ? "" : job + ", the job that checkpointed most: ")
        + String.format(
            Locale.ROOT,
            "%,d checkpoints completed in %d s of the steady window, the last of a second up to %,d"
                + " ms: checkpointing %.0f%% of it",
            completed,
            seconds,
            longestMs,
            100 * busyShare);
  }
}
