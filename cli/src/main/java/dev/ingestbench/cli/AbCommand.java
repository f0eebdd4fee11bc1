package dev.ingestbench.cli;

import dev.ingestbench.harness.ab.AbComparison;
import dev.ingestbench.harness.ab.AbMeasure;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ingestbench ab}: the working tree against a baseline commit, measured in pairs. */
@Command(
    name = "ab",
    mixinStandardHelpOptions = true,
    description = {
      "Compare this working tree with a baseline commit on this machine: the baseline is exported"
          + " apart (target/ab/) and built once, then both builds run each measure in pairs,"
          + " alternating which goes first; prints each figure's ratio (candidate / baseline) with"
          + " its 95%% CI and how many pairs agree. This machine's speed varies 3-4x from day to"
          + " day: only such a ratio compares builds, never figures of different days.",
      "  ingestbench ab --baseline HEAD~3 --pairs 4"
    })
final class AbCommand implements Callable<Integer> {
  @Option(
      names = "--baseline",
      paramLabel = "REV",
      defaultValue = "HEAD",
      description =
          "The commit to compare with: an id, tag or branch (default: ${DEFAULT-VALUE}, the last"
              + " commit: what the working tree's changes do).")
  String baseline;

  @Option(
      names = "--pairs",
      paramLabel = "N",
      defaultValue = "4",
      description =
          "Pairs of runs, 2 to 20; an even number puts each build first equally often (default:"
              + " ${DEFAULT-VALUE}).")
  int pairs;

  @Option(
      names = "--measure",
      paramLabel = "WHAT",
      split = ",",
      defaultValue = "consumer,round",
      description =
          "consumer (ingestbench consume --source=synthetic: the pipeline's own cost, no servers),"
              + " round (a drain round: ingestbench round --live-messages 0), or both (default:"
              + " ${DEFAULT-VALUE}).")
  List<String> measures;

  @Option(
      names = "--messages",
      paramLabel = "N",
      description = "Messages per run (default: 200,000 for consumer, 100,000 for round).")
  Long messages;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Where every run and the report go (default: runs/ab-yyyyMMdd-HHmmss).")
  Path out;

  @Option(
      names = "--measure-arg",
      paramLabel = "ARG",
      description =
          "Added to every run's command, repeatable, with one --measure: a consumer flag"
              + " (--measure-arg=--destinationTables=8) or a round's (--measure-arg=--write-method"
              + " --measure-arg=at-least-once).")
  List<String> measureArgs = new java.util.ArrayList<>();

  @Option(names = "--dry-run", description = "Print what would be built and run, and do nothing.")
  boolean dryRun;

  @Override
  public Integer call() throws Exception {
    AbComparison ab =
        new AbComparison(
            baseline,
            pairs,
            measures.stream().map(AbMeasure::of).distinct().toList(),
            messages,
            out != null
                ? out
                : Path.of(
                    "runs",
                    "ab-"
                        + LocalDateTime.now()
                            .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))),
            measureArgs);
    Path here = Path.of("").toAbsolutePath();
    if (dryRun) {
      ab.describe(here, System.out);
      return 0;
    }
    return ab.run(here, System.out);
  }
}
