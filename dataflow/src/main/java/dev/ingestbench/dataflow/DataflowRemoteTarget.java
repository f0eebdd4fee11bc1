package dev.ingestbench.dataflow;

import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.harness.scenario.RemoteTarget;
import dev.ingestbench.harness.staged.PlannedRun;
import dev.ingestbench.harness.staged.RunDirectory;
import dev.ingestbench.scenario.Scenario;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code --target dataflow}: a scenario's jobs as Flex Template jobs in {@link GcpSettings}'
 * project and region, and what of a scenario Dataflow cannot run, refused before anything starts.
 */
public final class DataflowRemoteTarget implements RemoteTarget {
  private final GcpSettings settings;

  public DataflowRemoteTarget(GcpSettings settings) {
    this.settings = settings;
  }

  @Override
  public String name() {
    return "dataflow";
  }

  @Override
  public String machine() {
    return "Dataflow " + settings.region();
  }

  @Override
  public Duration defaultWarmUpMax() {
    return DataflowTarget.DEFAULT_WARM_UP_MAX;
  }

  @Override
  public void refuseUnsupported(Path file, Scenario scenario) {
    if (scenario.source() != null && scenario.source().isKafka()) {
      throw new IllegalArgumentException(
          file
              + ": a Kafka scenario runs locally (--target local) in this"
              + " version; docs/dataflow.md has the exact Dataflow launch lines for a Managed Service for Apache Kafka round");
    }
    if (scenario.stages() == null) {
      throw new IllegalArgumentException(
          file
              + ": --target dataflow runs ordered stages; unordered"
              + " configurations run locally (--target local) in this version");
    }
    if (scenario.stages().stream().anyMatch(Scenario.Stage::isLoadTest)) {
      throw new IllegalArgumentException(
          file
              + ": a pubsub_load stage measures the client of the machine that"
              + " runs it, not Dataflow's workers; on Google Cloud run ingestbench pubsub-load --project on a VM in the"
              + " region (docs/pubsub-load.md), and remove the stage here");
    }
    if (scenario.stages().stream().anyMatch(Scenario.Stage::isMaxRateSearch)) {
      throw new IllegalArgumentException(
          file
              + ": a find_max_rate stage searches with a local round (its own emulators and"
              + " embedded Flink), not on Dataflow; run it with --target local, and remove the stage"
              + " here");
    }
    scenario
        .resolvedJobs()
        .forEach(
            (name, job) -> {
              if (job.sink() != null) {
                throw new IllegalArgumentException(
                    file
                        + ": jobs."
                        + name
                        + ".sink says which local BigQuery emulator a job writes to, and on"
                        + " Dataflow every job writes to BigQuery; remove the key, or run it with"
                        + " --target local or flink");
              }
            });
    for (Scenario.Stage st : scenario.stages()) {
      if (st.stopWith() != null && StopMode.of(st.stopWith()).orElse(null) == StopMode.SAVEPOINT) {
        throw new IllegalArgumentException(
            file
                + ": stages."
                + st.name()
                + ".stop_with: savepoint is Flink's stop-with-savepoint and Dataflow has none;"
                + " use drain or cancel, or run it with --target local or flink");
      }
      if (st.savepointAt() != null) {
        throw new IllegalArgumentException(
            file
                + ": stages."
                + st.name()
                + ".savepoint_at stops each consumer with Flink's stop-with-savepoint and Dataflow"
                + " has none; run it with --target local or flink, or remove the key here");
      }
    }
    ScenarioPlan plan = ScenarioPlan.of(scenario, 1, 0);
    var stepped = plan.firstLiveProfileStage();
    if (stepped.isPresent()) {
      throw new IllegalArgumentException(
          file
              + ": stages."
              + stepped.get().name()
              + ".live_profile steps the rate of live messages the run publishes itself, and on"
              + " Dataflow a publisher job of its own publishes them at one rate; run it with"
              + " --target local or flink, or remove the key here");
    }
    var taskManagerKill = plan.firstTaskManagerKillingStage();
    if (taskManagerKill.isPresent()) {
      throw new IllegalArgumentException(
          file
              + ": stages."
              + taskManagerKill.get().name()
              + ".kill_taskmanager_at kills a TaskManager of a local Flink cluster, and Dataflow's"
              + " workers are not this machine's to kill; run it with --target flink, or remove"
              + " the key here");
    }
    var killing = plan.firstKillingStage();
    if (killing.isPresent()) {
      throw new IllegalArgumentException(
          file
              + ": stages."
              + killing.get().name()
              + "."
              + killing.get().faults().key()
              + " kills a local consumer's JVM, and Dataflow's workers are not this machine's to"
              + " kill; run it with --target local, or remove the key here");
    }
  }

  @Override
  public void requireCredentials() throws IOException {
    settings.requireCredentials();
  }

  @Override
  public PlannedRun prepare(
      ScenarioPlan plan, RunDirectory dir, ScenarioRun run, Duration warmUpMax) {
    return new DataflowTarget(plan, dir, run, settings, warmUpMax);
  }
}
