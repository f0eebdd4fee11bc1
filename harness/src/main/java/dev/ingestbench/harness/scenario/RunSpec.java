package dev.ingestbench.harness.scenario;

import dev.ingestbench.harness.flink.PipelineRunner;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One {@code ingestbench run}, typed: the scenario file, where it runs and how.
 *
 * @param remote where the scenario runs when not on this machine (Dataflow); null runs locally
 * @param out the run directory; null is {@code runs/<scenario name>}
 * @param scale multiplies message counts, rate and durations
 * @param dryRun print every action and start nothing
 * @param restart delete what an earlier run wrote in {@code out} and start over
 * @param resultsTable {@code PROJECT:DATASET.TABLE} to append results to, or null
 * @param warmUpMax how long a resumed run waits for the jobs it restarts; null: the target's
 *     default
 * @param heap heap cap of each publisher and consumer JVM
 * @param runner where local jobs' pipelines run: embedded Flink ({@code --target local}) or a Flink
 *     cluster ({@code --target flink}); with {@code remote}, embedded Flink (what a scenario may
 *     ask of it is checked as of a run without a cluster of its own)
 */
public record RunSpec(
    Path file,
    RemoteTarget remote,
    Path out,
    double scale,
    boolean dryRun,
    boolean restart,
    String resultsTable,
    Duration warmUpMax,
    String heap,
    PipelineRunner runner) {

  /**
   * {@code local}, {@code flink} or the remote target's name ({@code dataflow}): what run.json
   * records, and a resumed run must match.
   */
  public String target() {
    return remote != null ? remote.name() : runner.targetName();
  }
}
