package dev.ingestbench.contracts;

import java.util.List;

/**
 * {@code max_rate_search.json}: what {@code round --find-max-rate} probed and found, written by the
 * round as it ends and read by its analysis (the report's section, {@code summary.json}'s {@code
 * max_sustainable_rows_per_second} and {@code limited_by}).
 *
 * @param maxSustainableRowsPerSecond the highest rate every job kept up with inside the latency
 *     SLO, in rows (messages) per second per job; null when no probe sustained its rate
 * @param limitedBy what ended the search: {@code publisher}, {@code consumer-cpu}, {@code
 *     machine-cpu}, {@code source-emulator}, {@code quota}, {@code connections}, {@code latency} or
 *     {@code unknown} (docs/max-rate.md says how each is decided)
 * @param limitEvidence the figures that named the limit, in a sentence
 * @param publisherCapacityMessagesPerSecond what the publisher alone sent with no rate limit, to a
 *     topic nobody reads: no probe asks for more
 * @param sustainedProbes probes at the answer's rate that sustained it (all that ran at it)
 * @param sustainedRowsPerSecond per-second written rows of those probes: mean and 95% CI
 * @param rowsPerSecondPerVcpu the answer divided by the machine's vCPUs
 * @param rowsPerConsumerCpuSecond rows written per CPU-second of the consumers at the answer's rate
 * @param bracketSustained the highest rate sustained (0: none)
 * @param bracketNotSustained the lowest rate above it not sustained (null: none was)
 */
public record MaxRateResult(
    String runId,
    Double maxSustainableRowsPerSecond,
    String limitedBy,
    String limitEvidence,
    double publisherCapacityMessagesPerSecond,
    long latencySloMs,
    double settleSeconds,
    double windowSeconds,
    double keptUpShare,
    int vcpus,
    int jobs,
    int sustainedProbes,
    Rate sustainedRowsPerSecond,
    Double rowsPerSecondPerVcpu,
    Double rowsPerConsumerCpuSecond,
    double bracketSustained,
    Double bracketNotSustained,
    List<Probe> probes) {

  /** A per-second rate: mean and 95% confidence interval over {@code samples} seconds. */
  public record Rate(double mean, double ci95Low, double ci95High, long samples) {}

  /**
   * One probe: a rate held for the settle time, the window and then the SLO; its latency is that of
   * the messages meant to be sent in the window (read once each has had the SLO to arrive), its
   * rates and CPU are measured over the window and the SLO after it.
   *
   * @param askedPerSecond the rate the publisher was given
   * @param publishedPerSecond what Pub/Sub acknowledged, per second
   * @param writtenPerSecond rows each job accounted for, per second (the slowest job)
   * @param writtenSamples that job's rows of each second: the raw data
   * @param backlogAtEnd messages published and not yet accounted for by the slowest job, at the
   *     probe's end
   * @param intended visible − intended send time of the window's messages (of the job that decided
   *     the verdict: the first that did not sustain the rate, else the slowest)
   * @param published visible − Pub/Sub publish time of the same messages
   * @param expectedMessages messages meant to be sent in the window; those not visible when it was
   *     judged count as later than the SLO
   * @param consumerCores consumers' CPU-seconds per second over the window
   * @param machineBusyShare the whole machine's busy share over the window (0..1)
   * @param sourceCores the Pub/Sub emulator's CPU-seconds per second
   * @param sinkCores the BigQuery emulator's
   * @param throttledAppends appends the local BigQuery throttled (its quota) during the window
   * @param refusedConnections connections it refused at its limit
   * @param verdict {@code sustained}, or why not (naming the job when a round has several)
   * @param otherCores CPU-seconds per second that went to anything but the round's processes (the
   *     whole machine's busy time, steal included, less the consumers', the emulators' and the
   *     round's own JVM's, which runs the paced publisher): work that starves the publisher and the
   *     pipeline alike; 0 where the machine's CPU is not this machine's (a container)
   */
  public record Probe(
      int number,
      double askedPerSecond,
      String startedAt,
      double publishedPerSecond,
      Rate writtenPerSecond,
      List<Double> writtenSamples,
      long backlogAtEnd,
      WindowLatency.Percentiles intended,
      WindowLatency.Percentiles published,
      long expectedMessages,
      double consumerCores,
      double machineBusyShare,
      double sourceCores,
      double sinkCores,
      long throttledAppends,
      long refusedConnections,
      boolean sustained,
      String verdict,
      double otherCores) {}
}
