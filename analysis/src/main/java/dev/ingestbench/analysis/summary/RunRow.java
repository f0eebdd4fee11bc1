package dev.ingestbench.analysis.summary;

/**
 * One row of {@code ingestbench summary}: one job of one stage (or a whole round) of one run, with
 * what it was given and what it did. Null is "not measured", never zero.
 *
 * @param run the run's directory, as given
 * @param kind {@code round} or {@code scenario}
 * @param source {@code pubsub} or {@code kafka}
 * @param sink where the rows went: {@code bigquery-emulator} locally, {@code bigquery} on Dataflow
 * @param runner embedded Flink, a Flink cluster, or Dataflow
 * @param vcpus the machine's vCPUs (locally) or 0 when the run does not say
 * @param inputRowsPerSecond the rate messages were published at while the jobs ran; null when they
 *     read a backlog (as fast as they could)
 * @param outputRowsPerSecond the steady rate rows were written at (its 95% interval beside it)
 * @param latencyBasis {@code live} (messages published after the job caught up) or {@code all}
 * @param verification {@code passed}, or what failed ({@code lost 3}), or null when this stage is
 *     not the one the job was verified in
 * @param costUsd what a billion rows would cost on Dataflow at the run's load (summary.json's
 *     {@code cost}, docs/cost.md); null where none was computed
 * @param maxSustainableRowsPerSecond a max-rate search's answer ({@code round --find-max-rate}, a
 *     {@code find_max_rate} stage); null otherwise or when no rate was sustained
 * @param limitedBy what ended that search; null without one
 * @param machineOpsPerSecond how fast the machine was that day: the calibration the run took as it
 *     began ({@code round.json}'s or {@code run.json}'s {@code machine_calibration}), operations
 *     per second; null where none was taken (Dataflow, older runs). Rows of different days are read
 *     against it, never compared as they are
 */
public record RunRow(
    String run,
    String kind,
    String scenario,
    String stage,
    String job,
    int iteration,
    String source,
    String sink,
    String runner,
    String messageFormat,
    Integer messageSizeBytes,
    String writeMethod,
    int vcpus,
    Double memoryGb,
    String heap,
    Double inputRowsPerSecond,
    Double outputRowsPerSecond,
    Double outputCi95Low,
    Double outputCi95High,
    Long latencyP50Ms,
    Long latencyP99Ms,
    String latencyBasis,
    String verification,
    Double costUsd,
    Double maxSustainableRowsPerSecond,
    String limitedBy,
    Double machineOpsPerSecond) {}
