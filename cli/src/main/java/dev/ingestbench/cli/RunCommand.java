package dev.ingestbench.cli;

import dev.ingestbench.cli.scenario.ScenarioRunner;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ingestbench run}: a scenario file, its stages or iterations, as one resumable command. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run a scenario: an investigation written as a YAML file (scenarios/ has the published rounds)."
          + " Ordered stages start and stop named jobs and hold for a duration or until steady/drained;"
          + " unordered configurations run one at a time in shuffled order, several iterations each.",
      "Progress is saved per stage or iteration: rerunning the same command resumes where it stopped.",
      "Writes report.md, results.jsonl (one record per stage, job and metric), scenario_samples.csv and charts to --out.",
      "",
      "  ingestbench run scenarios/write-method-ab.yaml --scale 0.02",
      "  ingestbench run scenarios/round-1-two-jobs-10kb.yaml --scale 0.001 --dry-run",
      ""
    })
public final class RunCommand implements Callable<Integer> {
  /** Where scenarios run. */
  public enum Target {
    local,
    dataflow
  }

  @Parameters(index = "0", paramLabel = "FILE", description = "The scenario file (YAML).")
  public Path file;

  @Option(names = "--target", defaultValue = "local",
      description = "local: emulators and one consumer JVM per job on this machine (default: ${DEFAULT-VALUE}).")
  public Target target;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Run directory (default: runs/<scenario name>); rerunning into it resumes the run.")
  public Path out;

  @Option(names = "--scale", paramLabel = "S", defaultValue = "1",
      description = "Multiply message counts, rate and durations by S to fit this machine; a scaled stage holds"
          + " at least 90 s (a local job needs 25-50 s to start); the report lists every scaled value (default: ${DEFAULT-VALUE}).")
  public double scale;

  @Option(names = "--dry-run", description = "Print every action and command line; start nothing, write nothing.")
  public boolean dryRun;

  @Option(names = "--restart", description = "Delete what an earlier run left in --out and start over.")
  public boolean restart;

  @Option(names = "--results-table", paramLabel = "PROJECT:DATASET.TABLE",
      description = "Also append results.jsonl to this BigQuery table (created when missing), with Application"
          + " Default Credentials.")
  public String resultsTable;

  @Option(names = "--heap", defaultValue = "2g", description = "Heap cap of each publisher and consumer JVM (default: ${DEFAULT-VALUE}).")
  public String heap;

  @Override
  public Integer call() throws Exception {
    return new ScenarioRunner(this).run();
  }
}
