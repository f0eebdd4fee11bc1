package dev.ingestbench.cli;

import dev.ingestbench.analysis.summary.RunRow;
import dev.ingestbench.analysis.summary.RunsSummary;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ingestbench summary DIR...}: one table across rounds and scenario runs. */
@Command(
    name = "summary",
    mixinStandardHelpOptions = true,
    description = {
      "One table across runs: a row per job and stage of every round and scenario directory given"
          + " (or every run in a directory of them): source, message, write method, machine, input"
          + " and output rows/s, latency, verification.",
      "  ingestbench summary runs/ --out runs/summary"
    })
final class SummaryCommand implements Callable<Integer> {
  @Parameters(
      arity = "1..*",
      paramLabel = "DIR",
      description = "The --out directory of a round or run, or a directory holding several.")
  List<Path> dirs;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "Also write the table there: "
              + RunsSummary.MARKDOWN
              + " and "
              + RunsSummary.JSON
              + " (the rows, snake_case keys).")
  Path out;

  @Override
  public Integer call() throws Exception {
    List<RunRow> rows = RunsSummary.read(dirs);
    if (out != null) {
      RunsSummary.write(out, rows);
    }
    System.out.print(RunsSummary.markdown(rows));
    if (out != null) {
      System.out.println();
      System.out.println(
          "Written: " + out.resolve(RunsSummary.MARKDOWN) + ", " + out.resolve(RunsSummary.JSON));
    }
    return 0;
  }
}
