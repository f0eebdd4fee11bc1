package dev.ingestbench.harness.round;

import dev.ingestbench.contracts.MachineCalibration;
import dev.ingestbench.contracts.MachineInfo;
import dev.ingestbench.contracts.RoundSettings;
import dev.ingestbench.contracts.Secrets;
import dev.ingestbench.harness.staged.ScenarioSource;
import java.util.List;

/**
 * What a round's {@code round.json} records: its spec as it ran, every setting resolved (the
 * consumer's defaults filled in), the flags that would run it again, the machine and how fast it
 * was that day.
 */
final class RoundJson {
  private RoundJson() {}

  /**
   * @param calibration how fast the machine was as the round began; null: not measured
   */
  static RoundSettings of(RoundSpec spec, RoundPlan plan, MachineCalibration calibration) {
    ScenarioSource source = plan.source();
    // A search publishes what its probes take: max_rate_search.json says how much, and at what.
    return new RoundSettings(
        spec.searches() ? 0 : spec.messages(),
        plan.backlogMessages(),
        plan.liveMessages(),
        spec.searches() ? 0 : spec.liveRate(),
        spec.messageSize(),
        plan.consumer.writeMethod().flag(),
        plan.consumer.rowFormat().flag(),
        plan.consumer.rowEncoding().flag(),
        spec.job().destinationTables(),
        spec.job().connectionPool(),
        spec.runner().beamRunner(),
        spec.pullBatchSize(),
        spec.seed(),
        spec.heap(),
        Secrets.redact(spec.consumerArgs()),
        MachineInfo.describe(),
        spec.jobs(),
        spec.sink().flag(),
        Secrets.redact(plan.bigQueryEmulatorArgs().orElse(List.of())),
        spec.source().flag(),
        plan.consumer.messageFormat().flag(),
        source.partitions().orElse(null),
        source.consumerGroups().orElse(null),
        plan.runId,
        spec.killConsumerAt(),
        spec.crashEverySeconds(),
        spec.runner().clusterDescription(),
        spec.feed() ? Boolean.TRUE : null,
        calibration,
        spec.savepointAt(),
        spec.job().tableSkew().flag(),
        spec.job().tableCreation().flag(),
        Secrets.redact(spec.asRoundFlags()));
  }
}
