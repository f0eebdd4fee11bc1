package dev.ingestbench.analysis.summary;

import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One table across runs (after the scenario summary table of performance reports such as WSO2's):
 * every round and scenario directory given, one row per job and stage, with what it was given
 * (source, message, write method, machine, input rate) and what it did (output rate, latency,
 * verification).
 */
public final class RunsSummary {
  /** The files {@code --out} gets. */
  public static final String MARKDOWN = "runs-summary.md";

  public static final String JSON = "runs-summary.json";

  /** {@value #JSON}: the rows, keys in snake_case. */
  public record File(List<RunRow> rows) {}

  private RunsSummary() {}

  /**
   * The rows of every directory, in the order given; a directory that holds runs (e.g. {@code
   * runs/}) stands for each of them, sorted by name.
   *
   * @throws IllegalArgumentException naming a directory that is no run and holds none
   */
  public static List<RunRow> read(List<Path> dirs) throws IOException {
    List<RunRow> rows = new ArrayList<>();
    for (Path dir : dirs) {
      if (!Files.isDirectory(dir)) {
        throw new IllegalArgumentException(
            dir + " is not a directory: give the --out directory of a round or a run");
      }
      if (isRun(dir)) {
        rows.addAll(rowsOf(dir.toString(), dir));
        continue;
      }
      List<Path> runs;
      try (Stream<Path> children = Files.list(dir)) {
        runs = children.filter(RunsSummary::isRun).sorted().toList();
      }
      if (runs.isEmpty()) {
        throw new IllegalArgumentException(
            dir
                + " holds no run: a round's directory has "
                + RunFiles.ROUND
                + " and "
                + RunFiles.SUMMARY
                + ", a scenario run's "
                + RunFiles.SCENARIO_RUN
                + "; give the --out of ingestbench round or run (or a directory of them)");
      }
      for (Path run : runs) {
        rows.addAll(rowsOf(run.toString(), run));
      }
    }
    return rows;
  }

  /** The table as Markdown, as {@value #MARKDOWN} holds it. */
  public static String markdown(List<RunRow> rows) {
    return RunsSummaryMarkdown.of(rows);
  }

  /** Writes {@value #MARKDOWN} and {@value #JSON} into {@code out}. */
  public static void write(Path out, List<RunRow> rows) throws IOException {
    Files.createDirectories(out);
    Files.writeString(out.resolve(MARKDOWN), RunsSummaryMarkdown.of(rows));
    RunJson.write(out.resolve(JSON), new File(rows));
  }

  private static boolean isRun(Path dir) {
    return Files.isRegularFile(dir.resolve(RunFiles.SCENARIO_RUN))
        || (Files.isRegularFile(dir.resolve(RunFiles.ROUND))
            && Files.isRegularFile(dir.resolve(RunFiles.SUMMARY)));
  }

  private static List<RunRow> rowsOf(String name, Path dir) throws IOException {
    return Files.isRegularFile(dir.resolve(RunFiles.SCENARIO_RUN))
        ? ScenarioRows.of(name, dir)
        : List.of(RoundRows.of(name, dir));
  }
}
