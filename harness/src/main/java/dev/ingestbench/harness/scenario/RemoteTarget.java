package dev.ingestbench.harness.scenario;

import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.harness.staged.PlannedRun;
import dev.ingestbench.harness.staged.RunDirectory;
import dev.ingestbench.scenario.Scenario;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where a scenario runs when it does not run on this machine: Dataflow, which lives in a module of
 * its own so that the local path carries none of its API clients. {@link ScenarioRunner} asks it
 * what it cannot honour, then hands it the plan.
 */
public interface RemoteTarget {
  /** What run.json records as the target, and a resumed run must match: {@code dataflow}. */
  String name();

  /** What run.json records as the machine, e.g. "Dataflow us-central1". */
  String machine();

  /** How long a resumed run waits for the jobs it restarts when {@code --warm-up-max} is unset. */
  Duration defaultWarmUpMax();

  /**
   * Refuses what this target cannot run, before anything else is looked at: throws
   * IllegalArgumentException naming {@code file}'s key, the target and the fix.
   */
  void refuseUnsupported(Path file, Scenario scenario);

  /**
   * Throws when the credentials this target needs are missing; called before anything is written.
   */
  void requireCredentials() throws IOException;

  /**
   * {@code plan} on this target; checks every job's settings (throws IllegalArgumentException
   * naming the job) before anything starts.
   */
  PlannedRun prepare(ScenarioPlan plan, RunDirectory dir, ScenarioRun run, Duration warmUpMax);
}
