package dev.ingestbench.contracts;

import java.util.Map;

/**
 * One line of {@link RunFiles#RESULTS}: one metric of one job in one stage (or unordered
 * configuration) of one iteration of a scenario run. The keys (snake_case) are a contract: users
 * load these lines into BigQuery ({@code --results-table}) and query them across runs.
 *
 * @param runId the run directory's id, the same on every line of a run (and across its resumes)
 * @param target {@code local} or {@code dataflow}
 * @param iteration 1-based; ordered scenarios run once
 * @param stage the stage's name, or the configuration's name in an unordered scenario
 * @param job the job's name, or {@link #ALL_JOBS} for a sum over the jobs of a stage
 * @param labels every flag of the job (write method, row format, ...), the scale and the machine
 * @param timestamp when the stage or iteration ended, ISO-8601 UTC
 */
public record ResultRecord(
    String runId,
    String scenario,
    String target,
    int iteration,
    String stage,
    String job,
    String metric,
    double value,
    String unit,
    Map<String, String> labels,
    String timestamp) {

  /** The job of records that sum every job of a stage. */
  public static final String ALL_JOBS = "all";

  /** The first value of {@code label} among {@code records}' labels, if any has it. */
  public static java.util.Optional<String> firstLabel(
      java.util.List<ResultRecord> records, ResultLabel label) {
    return records.stream()
        .map(r -> r.labels() == null ? null : r.labels().get(label.key()))
        .filter(java.util.Objects::nonNull)
        .findFirst();
  }
}
