package dev.ingestbench.contracts;

import java.util.Map;

/**
 * {@link RunFiles#SCENARIO_RUN}: what a scenario run is, written when it first starts; a rerun into
 * the same directory must match it (same scenario file, target and scale) to resume.
 *
 * @param scaled every value {@code --scale} changed: key to "full-size -> run" text
 * @param machineCalibration how fast this machine was when the run first started (a local run's;
 *     null on Dataflow, whose workers are elsewhere, and in files written before it)
 */
public record ScenarioRun(
    String runId,
    String scenario,
    String target,
    double scale,
    String scenarioSha256,
    String startedAt,
    String machine,
    int vcpus,
    Map<String, String> scaled,
    MachineCalibration machineCalibration) {

  /** A run without a calibration (yet). */
  public ScenarioRun(
      String runId,
      String scenario,
      String target,
      double scale,
      String scenarioSha256,
      String startedAt,
      String machine,
      int vcpus,
      Map<String, String> scaled) {
    this(runId, scenario, target, scale, scenarioSha256, startedAt, machine, vcpus, scaled, null);
  }
}
