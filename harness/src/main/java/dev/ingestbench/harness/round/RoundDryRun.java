package dev.ingestbench.harness.round;

import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.harness.flink.FlinkClusterRunner;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.spec.MaxRateSpec;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/**
 * {@code round --dry-run}: every step of the round in order, with the command line of every process
 * it would start, read from the same plan the round runs ({@link RoundPlan}); nothing is started
 * and nothing written. Addresses that exist only once the servers run are placeholders ({@code
 * SOURCE_HOST}, {@code BIGQUERY_GRPC}, {@code BIGQUERY_REST}, {@code FLINK_MASTER}).
 */
public final class RoundDryRun {
  private static final String SOURCE_HOST = "SOURCE_HOST";
  private static final BigQueryEmulatorProcess.Address BIGQUERY =
      new BigQueryEmulatorProcess.Address("BIGQUERY_GRPC", "BIGQUERY_REST");

  private final RoundSpec spec;
  private final RoundPlan plan;

  /** Validates every process's flags, as the round does; throws naming the problem. */
  public RoundDryRun(RoundSpec spec) {
    this.spec = spec;
    this.plan = new RoundPlan(spec);
  }

  public void print(PrintStream out) {
    out.println("Would run a round locally into " + spec.out() + ":");
    out.println(
        spec.kafka()
            ? "  start a Kafka broker on a free port -> "
                + SOURCE_HOST
                + "; create topic "
                + RoundPlan.TOPIC
                + " with "
                + spec.partitions()
                + " partition(s)"
            : "  start the Pub/Sub emulator (pstest) on a free port -> "
                + SOURCE_HOST
                + "; create topic "
                + RoundPlan.TOPIC
                + " and subscriptions "
                + plan.subscriptions());
    if (spec.sink() == RoundSpec.Sink.EMULATOR) {
      out.println(
          "  start the BigQuery emulator: ingestbench bigquery-emulator "
              + String.join(" ", plan.bigQueryEmulatorArgs()));
    }
    if (spec.cluster() != null) {
      out.println("  " + FlinkClusterRunner.describe(spec.cluster()) + " -> FLINK_MASTER");
    }
    if (spec.searches()) {
      describeSearch(out);
    } else if (plan.backlogMessages() > 0) {
      out.println(
          String.format(
              Locale.ROOT,
              "  publish the backlog (%,d messages): ingestbench publish %s",
              plan.backlogMessages(),
              String.join(" ", plan.backlogPublisherArgs(SOURCE_HOST))));
    }
    for (int j = 1; j <= plan.jobs(); j++) {
      out.println(
          "  start "
              + RoundPlan.jobName(j)
              + ": ingestbench consume "
              + String.join(
                  " ", plan.consumer(j).args(SOURCE_HOST, BIGQUERY, "FLINK_MASTER", null, null)));
    }
    describeLive(out);
    describeFaults(out);
    out.println(
        spec.searches()
            ? "  once the search has ended, close every consumer's stdin (each writes its results"
                + " and exits)"
            : "  wait until every consumer stops by itself once it has accounted for every message"
                + " (max --timeout "
                + spec.timeoutSeconds()
                + " s)");
    out.println(
        "  verify every job; stop every server; write report.md, summary.json and results.jsonl");
    out.println("  each job's results are labelled with its settings as it runs:");
    for (Map.Entry<String, Map<String, String>> job : plan.labels().entrySet()) {
      out.println("    " + job.getKey() + ": " + job.getValue());
    }
  }

  private void describeSearch(PrintStream out) {
    MaxRateSpec s = spec.findMaxRate();
    out.println(
        String.format(
            Locale.ROOT,
            "  measure this JVM's publisher alone (a topic nobody reads); then, once every job"
                + " runs, probe live rates from this JVM (at most %d probes of %d s, latency SLO"
                + " %,d ms, %d confirmation(s)), each message at its intended send time",
            s.maxProbes(),
            s.window().toSeconds(),
            s.latencySlo().toMillis(),
            s.confirmations()));
  }

  private void describeLive(PrintStream out) {
    if (plan.liveMessages() == 0) {
      return;
    }
    out.println(
        String.format(
            Locale.ROOT,
            "  once every job has accounted for the backlog, publish %,d live messages (event"
                + " indexes %,d-%,d) at %s msg/s%s from this JVM with the %s, each at the time"
                + " the rate means it to be sent%s; then write %s",
            plan.liveMessages(),
            plan.backlogMessages(),
            plan.backlogMessages() + plan.liveMessages() - 1,
            Numbers.rate(spec.liveRate()),
            spec.liveProfile() == null ? "" : " stepped through " + spec.liveProfile(),
            spec.kafka() ? "Kafka producer" : "Pub/Sub client",
            spec.sink() == RoundSpec.Sink.EMULATOR
                ? ", telling the BigQuery emulator each step of the schedule"
                : "",
            spec.out().resolve("publisher_live.json")));
  }

  private void describeFaults(PrintStream out) {
    if (spec.killConsumerAt() != null || spec.crashEverySeconds() != null) {
      out.println(
          "  kill every consumer (SIGKILL)"
              + (spec.killConsumerAt() != null
                  ? " " + spec.killConsumerAt() + " s after it starts"
                  : "")
              + (spec.crashEverySeconds() != null
                  ? (spec.killConsumerAt() != null ? ", then" : "")
                      + " every "
                      + spec.crashEverySeconds()
                      + " s after each life starts writing"
                  : "")
              + ", once it has completed a Flink checkpoint; start it again from that checkpoint");
    }
    if (spec.cluster() != null && spec.cluster().killTaskManagerAt() != null) {
      out.println(
          "  kill a TaskManager (SIGKILL) "
              + spec.cluster().killTaskManagerAt()
              + " s after every job has written; Flink restores the jobs from their last"
              + " checkpoint, and a fresh TaskManager takes its place");
    }
  }
}
