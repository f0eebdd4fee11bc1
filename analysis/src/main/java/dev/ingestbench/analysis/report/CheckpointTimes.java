package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.source.CpuSamplesCsv;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The pipeline's own waiting on its checkpoints over the steady window, from the consumer's
 * per-second samples of the embedded Flink's checkpoint gauges ({@code consumer_samples.csv}'s
 * {@code checkpoints_completed} and {@code checkpoint_last_ms}). Flink starts the next checkpoint
 * only once the last has completed; checkpoints that fill the window ran back to back, each as long
 * as the interval or longer, and while each is aligned its operators hold back their input.
 *
 * @param completed checkpoints completed in the window
 * @param busyShare the time they took ÷ the window: each second's newly completed checkpoints times
 *     the last one's duration (the gauges give only the last)
 * @param longestMs the longest last duration a sample saw
 */
record CheckpointTimes(long completed, double busyShare, long longestMs, int seconds) {
  /** Checkpointing this share of the window or more: back to back, the pipeline's own waiting. */
  static final double CHECKPOINT_BOUND = 0.9;

  /** None where the run did not record the gauges (another runner, an older run) or no window. */
  static Optional<CheckpointTimes> of(List<CpuSamplesCsv.Sample> samples, Optional<Phase> window) {
    if (window.isEmpty()) {
      return Optional.empty();
    }
    long from = window.get().start().getEpochSecond();
    long to = window.get().end().getEpochSecond();
    long before = -1; // the count at the window's start
    long last = -1;
    long longest = 0;
    double busyMs = 0;
    int seconds = 0;
    for (CpuSamplesCsv.Sample s : samples) {
      long second = s.second().getEpochSecond();
      if (s.checkpointsCompleted() < 0 || second > to) {
        continue;
      }
      if (second <= from) {
        before = s.checkpointsCompleted(); // a sample stamped t covers [t-1, t)
        last = before;
        continue;
      }
      if (last >= 0 && s.checkpointsCompleted() > last) {
        busyMs += (s.checkpointsCompleted() - last) * (double) s.checkpointLastMs();
      }
      if (last >= 0) {
        seconds++;
      }
      longest = Math.max(longest, s.checkpointLastMs());
      last = s.checkpointsCompleted();
    }
    if (before < 0 || seconds == 0) {
      return Optional.empty();
    }
    return Optional.of(
        new CheckpointTimes(last - before, Math.min(1, busyMs / 1000 / seconds), longest, seconds));
  }

  boolean bound() {
    return busyShare >= CHECKPOINT_BOUND;
  }

  /** "7 checkpoints completed in 6 s, the last taking up to 311 ms: 21% of the window". */
  String describe() {
    return String.format(
        Locale.ROOT,
        "%,d checkpoints completed in %d s of the steady window, each up to %,d ms: checkpointing"
            + " %.0f%% of it",
        completed,
        seconds,
        longestMs,
        100 * busyShare);
  }
}
