package dev.ingestbench.harness.round;

import dev.ingestbench.contracts.job.TableCreation;
import dev.ingestbench.harness.spec.JobSettings;
import dev.ingestbench.scenario.JobConfig;
import dev.ingestbench.scenario.Scenario;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.scenario.Until;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A round as the scenario it is: every job started at once in one stage that lasts until each has
 * accounted for every message, at most --timeout (and a minute for the consumers to stop at their
 * own --timeout first, which is what ends a round that could not finish).
 */
final class OneStage {
  /**
   * The stage's name: its marker is {@code status/01-round.json}, its result records' stage {@code
   * round}.
   */
  static final String STAGE = "round";

  private static final long STOP_AT_OWN_TIMEOUT_SECONDS = 60;

  private OneStage() {}

  static ScenarioPlan plan(RoundSpec spec, RoundPlan plan) {
    List<String> jobs = new ArrayList<>();
    Map<String, JobConfig> configs = new LinkedHashMap<>();
    JobSettings j = spec.job();
    JobConfig config =
        new JobConfig(
            j.writeMethod(),
            j.rowFormat(),
            j.rowEncoding(),
            j.destinationTables(),
            j.tableSkew().uniform() ? null : j.tableSkew(),
            j.tableCreation() == TableCreation.IF_NEEDED ? null : j.tableCreation(),
            j.connectionPool(),
            j.maxPoolConnections(),
            j.streams(),
            j.triggeringFrequency(),
            null,
            null,
            spec.sink());
    for (int n = 1; n <= spec.jobs(); n++) {
      jobs.add(RoundPlan.jobName(n));
      configs.put(RoundPlan.jobName(n), config);
    }
    Scenario scenario =
        new Scenario(
            STAGE,
            null,
            new Scenario.Source(
                spec.source().flag(),
                RoundPlan.TOPIC,
                plan.subscriptions(),
                spec.partitions(),
                spec.sharedConsumerGroup() ? "shared" : "separate"),
            new Scenario.Publish(
                spec.messages(),
                spec.messageSize(),
                plan.backlogMessages(),
                plan.liveMessages() > 0 ? spec.liveRate() : null,
                spec.messageFormat().flag()),
            null,
            configs,
            Scenario.Limits.maxDeadLetters(spec.maxDeadLetters()),
            List.of(
                new Scenario.Stage(
                    STAGE,
                    jobs,
                    null,
                    null,
                    Until.DRAINED.word(),
                    // A consumer restored from its savepoint has its --timeout again from then.
                    (plan.consumerTimeoutSeconds()
                            + (spec.savepointAt() == null ? 0 : spec.savepointAt())
                            + STOP_AT_OWN_TIMEOUT_SECONDS)
                        + "s",
                    null,
                    null,
                    null,
                    seconds(spec.killConsumerAt()),
                    seconds(spec.crashEverySeconds()),
                    seconds(spec.runner().killTaskManagerAt()),
                    null,
                    seconds(spec.savepointAt()))),
            null);
    return ScenarioPlan.of(scenario, 1, 0);
  }

  /** A round's fault flag (seconds) as its stage key's value, or null when not given. */
  private static String seconds(Long value) {
    return value == null ? null : value + "s";
  }
}
