package dev.ingestbench.contracts;

import java.util.List;
import java.util.Map;

/**
 * {@code live_profile.json}: {@code round --live-profile}'s steps as they ran, written by the round
 * before its servers stop and read by its analysis (the report's "Live profile" section, which adds
 * each step's written rows/s and backlog from the per-second timeline).
 *
 * @param profile the flag's text, {@code 1x:60s,2x:60s,4x:30s,1x:60s}
 * @param baseRate messages/s for 1x ({@code --live-rate})
 * @param startEpochMs when the first live message was meant to be sent (the earliest shard's
 *     schedule)
 */
public record LiveProfileResult(
    String runId, String profile, double baseRate, long startEpochMs, List<Step> steps) {

  /**
   * One step.
   *
   * @param fromEpochMs its start, by intended send time
   * @param toEpochMs its end (exclusive)
   * @param expectedMessages messages it was meant to send
   * @param expectedInLatencyWindow of those, the ones meant for the whole seconds inside it, which
   *     its latency covers (the local BigQuery keeps latency per second of intended time)
   * @param backlogAtEnd the live messages meant to be sent by the step's end that the slowest job
   *     had not yet accounted for (the local BigQuery's status read at {@code
   *     backlogReadAtEpochMs}, the last reading before the end, a second apart): the messages in
   *     flight (about the rate times the latency) and any that waited; null when none was read
   * @param backlogReadAtEpochMs when that reading was made
   * @param latencyByJob each job's latency of the messages meant to be sent in those seconds
   *     (visible − intended send time, and visible − publish time)
   */
  public record Step(
      int number,
      double multiplier,
      double ratePerSecond,
      long fromEpochMs,
      long toEpochMs,
      long expectedMessages,
      long expectedInLatencyWindow,
      Long backlogAtEnd,
      Long backlogReadAtEpochMs,
      Map<String, WindowLatency> latencyByJob) {}
}
