package dev.ingestbench.harness.ab;

import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.contracts.MachineInfo;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.harness.spec.OutDirectory;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code ingestbench ab}: this working tree against a baseline commit on this machine, in pairs.
 * Both are exported and built apart under {@code target/ab/}: the baseline commit, and a snapshot
 * of the working tree taken as the comparison starts (tracked and untracked files, as {@code git
 * add -A} would take them), so that editing the tree meanwhile changes neither. Each pair runs
 * every measure with both builds, the baseline first in odd pairs and second in even ones; every
 * run's files stay under {@code --out} ({@code pair-N/BUILD-MEASURE/}), its figures in {@code
 * ab.json}, the ratios in {@code ab.md}.
 *
 * @param baseline the baseline: a commit, tag or branch
 * @param pairs pairs to run (2 or more: one pair has no interval)
 * @param measures what each build runs, in this order
 * @param messages messages per run of each measure, or null for its default
 * @param out where every run and the report go
 * @param measureArgs added to every run's command, after the measure's own: what to measure it with
 *     ({@code --destinationTables=8} for the consumer, {@code --destination-tables 8} for a round);
 *     one measure only, since the two take different flags
 */
public record AbComparison(
    String baseline,
    int pairs,
    List<AbMeasure> measures,
    Long messages,
    Path out,
    List<String> measureArgs) {

  /** Without arguments of its own: each measure as it is. */
  public AbComparison(
      String baseline, int pairs, List<AbMeasure> measures, Long messages, Path out) {
    this(baseline, pairs, measures, messages, out, List.of());
  }

  /** The most pairs a comparison takes: each costs minutes. */
  public static final int MAX_PAIRS = 20;

  public AbComparison {
    measures = List.copyOf(measures);
    measureArgs = List.copyOf(measureArgs);
    if (!measureArgs.isEmpty() && measures.size() != 1) {
      throw new IllegalArgumentException(
          "--measure-arg needs one --measure (consumer or round): their flags differ");
    }
    if (pairs < 2 || pairs > MAX_PAIRS) {
      throw new IllegalArgumentException(
          "--pairs " + pairs + " must be 2 to " + MAX_PAIRS + ": one pair has no interval");
    }
    if (measures.isEmpty()) {
      throw new IllegalArgumentException("--measure: give consumer, round or both");
    }
    if (messages != null && messages < 1_000) {
      throw new IllegalArgumentException(
          "--messages " + messages + " must be 1,000 or more: a shorter run measures start-up");
    }
    out = OutDirectory.require(out).toAbsolutePath();
  }

  /** One run's {@code ingestbench} arguments: the measure's, then {@link #measureArgs}. */
  List<String> argsOf(AbMeasure m, Path dir) {
    List<String> args = new java.util.ArrayList<>(m.args(dir, messagesOf(m)));
    args.addAll(measureArgs);
    return args;
  }

  /** The messages a run of {@code m} takes. */
  long messagesOf(AbMeasure m) {
    return messages != null ? messages : m.defaultMessages();
  }

  /** What it would run, without building or running anything. */
  public void describe(Path from, PrintStream say) throws IOException, InterruptedException {
    Path repo = BaselineBuild.repository(from);
    String commit = BaselineBuild.commit(repo, baseline);
    say.println("Would compare the working tree at " + repo + " with " + commit + ":");
    say.println(
        "  export "
            + commit.substring(0, 12)
            + " into "
            + repo.resolve("target/ab").resolve(commit.substring(0, 12))
            + " (unless there) and build it with its own launcher");
    for (int pair = 1; pair <= pairs; pair++) {
      for (AbMeasure m : measures) {
        for (AbFigures.Build b : order(pair)) {
          say.println(
              "  pair "
                  + pair
                  + ", "
                  + name(b)
                  + ": ingestbench "
                  + String.join(" ", argsOf(m, runDirectory(pair, b, m))));
        }
      }
    }
    say.println("  then write " + out.resolve("ab.json") + " and " + out.resolve("ab.md"));
  }

  /** Builds the baseline, runs every pair, writes and prints the report; 0 once it is written. */
  public int run(Path from, PrintStream say) throws IOException, InterruptedException {
    Path repo = BaselineBuild.repository(from);
    String commit = BaselineBuild.commit(repo, baseline);
    Path base = BaselineBuild.prepare(repo, commit, line -> say.println("[ab] " + line));
    // The working tree as it is now, frozen: an edit while the pairs run changes neither build.
    String snapshot = BaselineBuild.snapshot(repo);
    Path tree = BaselineBuild.prepare(repo, snapshot, line -> say.println("[ab] " + line));
    String candidate =
        "the working tree at "
            + BaselineBuild.describe(repo)
            + " (snapshot "
            + snapshot.substring(0, 12)
            + ")";
    List<AbFigures.Run> runs = new ArrayList<>();
    AbFigures figures = new AbFigures(commit, candidate, machine(), runs, measureArgs);
    for (int pair = 1; pair <= pairs; pair++) {
      for (AbMeasure m : measures) {
        for (AbFigures.Build b : order(pair)) {
          Path dir = runDirectory(pair, b, m);
          say.printf(
              "[ab] Pair %d/%d: %s, %s (%,d messages)%n",
              pair, pairs, name(b), m.word(), messagesOf(m));
          long start = System.nanoTime();
          launch(
              b == AbFigures.Build.BASELINE ? base : tree,
              repo,
              argsOf(m, dir),
              dir.resolveSibling(dir.getFileName() + ".log"));
          double seconds = (System.nanoTime() - start) / 1e9;
          Map<String, Double> f = m.figures(dir);
          for (Map.Entry<String, Double> e : f.entrySet()) {
            if (e.getValue() == null || !(e.getValue() > 0) || e.getValue().isInfinite()) {
              throw new IOException(
                  name(b)
                      + " "
                      + m.word()
                      + " run of pair "
                      + pair
                      + " has no "
                      + e.getKey()
                      + " ("
                      + e.getValue()
                      + "); its files are in "
                      + dir);
            }
          }
          runs.add(new AbFigures.Run(pair, b, m.word(), seconds, f, dir.toString()));
          say.printf(
              "[ab]   %s in %.0f s%n",
              String.join(
                  ", ",
                  f.entrySet().stream()
                      .map(e -> Numbers.rate(e.getValue()) + " " + e.getKey())
                      .toList()),
              seconds);
          figures = new AbFigures(commit, candidate, machine(), runs, measureArgs);
          RunJson.write(
              out.resolve("ab.json"), figures); // kept as it goes: a stop keeps the pairs so far
        }
      }
    }
    String report = figures.report().markdown();
    Files.writeString(out.resolve("ab.md"), report, StandardCharsets.UTF_8);
    say.println();
    say.print(report);
    say.println();
    say.println("[ab] Written: " + out.resolve("ab.md") + ", " + out.resolve("ab.json"));
    return 0;
  }

  /** {@code 2 vCPUs, AMD EPYC 7B13, 24.0 GB, OpenJDK 64-Bit Server VM 17.0.15}. */
  static String machine() {
    Map<String, Object> m = MachineInfo.describe();
    return m.get("vcpus")
        + " vCPUs, "
        + m.get("cpu_model")
        + ", "
        + m.get("memory_gb")
        + " GB, "
        + m.get("java");
  }

  /** The baseline first in odd pairs, second in even ones. */
  static List<AbFigures.Build> order(int pair) {
    return pair % 2 == 1
        ? List.of(AbFigures.Build.BASELINE, AbFigures.Build.CANDIDATE)
        : List.of(AbFigures.Build.CANDIDATE, AbFigures.Build.BASELINE);
  }

  private Path runDirectory(int pair, AbFigures.Build b, AbMeasure m) {
    return out.resolve("pair-" + pair).resolve(name(b) + "-" + m.word());
  }

  private static String name(AbFigures.Build b) {
    return b == AbFigures.Build.BASELINE ? "baseline" : "candidate";
  }

  /** Runs {@code tree}'s launcher with {@code args} from {@code cwd}, its output in {@code log}. */
  private static void launch(Path tree, Path cwd, List<String> args, Path log)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(tree.resolve("ingestbench").toString());
    command.addAll(args);
    BaselineBuild.run(cwd, command, log, java.time.Duration.ofHours(2));
  }
}
