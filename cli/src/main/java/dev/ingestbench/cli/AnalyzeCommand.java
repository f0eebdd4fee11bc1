package dev.ingestbench.cli;

import dev.ingestbench.analysis.report.RoundFiles;
import dev.ingestbench.analysis.report.RoundReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Analyses the raw outputs of a run into a report. */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    description = {
      "Turn a run's raw data into report.md, summary.json and charts.",
      "  ingestbench analyze --run runs/round-20261121-101500"
    })
final class AnalyzeCommand implements Callable<Integer> {
  @Option(
      names = "--run",
      required = true,
      paramLabel = "DIR",
      description = "Output directory of 'ingestbench round' (holds " + RoundFiles.TIMELINE_PER_SECOND + ").")
  Path run;

  @Override
  public Integer call() throws Exception {
    if (!Files.isDirectory(run)) {
      throw new IllegalArgumentException("--run " + run + " is not a directory");
    }
    RoundReport.write(run);
    System.out.println("Wrote " + run.resolve(RoundFiles.REPORT) + " and " + run.resolve(RoundFiles.SUMMARY));
    return 0;
  }
}
