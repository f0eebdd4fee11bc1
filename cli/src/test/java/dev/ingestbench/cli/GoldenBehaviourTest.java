package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.harness.round.RoundDryRun;
import dev.ingestbench.harness.scenario.ScenarioRunner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Today's behaviour, frozen before the harness is rewritten into one world: for every {@code round}
 * command in README.md and docs/, the arguments of every process it starts and its result labels;
 * for every shipped scenario, the local dry run and the Dataflow dry run (its launch parameters). A
 * change that alters any of them fails here with the difference; an intended one is written again
 * with {@code -Dgolden.update=true} and listed in its commit.
 */
class GoldenBehaviourTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path GOLDEN = Path.of("src/test/resources/golden");
  private static final boolean UPDATE = Boolean.getBoolean("golden.update");

  @TempDir static Path scratch;

  @TestFactory
  Stream<DynamicTest> everyDocumentedRoundStartsTheSameProcessesWithTheSameArguments()
      throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    for (DocumentedCommandsTest.Documented c : documented()) {
      List<String> w = c.words();
      if (!w.get(0).endsWith("ingestbench") || w.size() < 2 || !w.get(1).equals("round")) {
        continue;
      }
      String line = String.join(" ", w.subList(1, w.size()));
      if (seen.contains(line)) {
        continue;
      }
      seen.add(line);
      String name = String.format("round-%02d", seen.size());
      tests.add(
          DynamicTest.dynamicTest(
              name + ": " + line, () -> compare(name + ".txt", roundProcesses(w))));
    }
    assertTrue(tests.size() >= 10, "found only " + tests.size() + " documented rounds");
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> everyShippedScenarioDryRunsTheSame() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    try (Stream<Path> files = Files.list(ROOT.resolve("scenarios"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        String name = file.getFileName().toString().replace(".yaml", "");
        tests.add(
            DynamicTest.dynamicTest(
                name + " (local)",
                () ->
                    compare(
                        "scenario-" + name + "-local.txt",
                        dryRun("run", file.toString(), "--scale", "0.001"))));
        tests.add(
            DynamicTest.dynamicTest(
                name + " (dataflow)",
                () ->
                    compare(
                        "scenario-" + name + "-dataflow.txt",
                        dryRun(
                            "run",
                            file.toString(),
                            "--target",
                            "dataflow",
                            "--project",
                            "my-project",
                            "--region",
                            "asia-southeast1",
                            "--bucket",
                            "my-bucket"))));
      }
    }
    return tests.stream();
  }

  private static List<DocumentedCommandsTest.Documented> documented() throws Exception {
    List<DocumentedCommandsTest.Documented> commands = new ArrayList<>();
    commands.addAll(DocumentedCommandsTest.commandsOf(ROOT.resolve("README.md")));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      for (Path doc : docs.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
        commands.addAll(DocumentedCommandsTest.commandsOf(doc));
      }
    }
    return commands;
  }

  /**
   * What {@code round --dry-run} prints: every step, every process a round starts with its
   * arguments, and its result labels.
   */
  private static String roundProcesses(List<String> words) {
    CommandLine cli = IngestbenchCommand.commandLine();
    CommandLine.ParseResult parsed =
        cli.parseArgs(words.subList(1, words.size()).toArray(new String[0]));
    RoundCommand round = (RoundCommand) parsed.subcommand().commandSpec().userObject();
    round.out = Path.of("runs", "golden");
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    new RoundDryRun(round.spec()).print(new PrintStream(printed, true, StandardCharsets.UTF_8));
    return "# "
        + String.join(" ", words.subList(1, words.size()))
        + "\n\n"
        + printed.toString(StandardCharsets.UTF_8);
  }

  /** What {@code ingestbench ARGS --dry-run} prints, as the command itself runs it. */
  private static String dryRun(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--out", scratch.resolve("dry").toString(), "--dry-run"));
    CommandLine cli = IngestbenchCommand.commandLine();
    CommandLine.ParseResult parsed = cli.parseArgs(all.toArray(new String[0]));
    RunCommand run = (RunCommand) parsed.subcommand().commandSpec().userObject();
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    String refused = null;
    try {
      assertEquals(0, new ScenarioRunner(run.spec()).run(), "dry run of " + all);
    } catch (IllegalArgumentException e) {
      refused = e.getMessage(); // a refusal is behaviour too: a target that cannot run it
    } finally {
      System.setOut(original);
    }
    return "# "
        + String.join(" ", args)
        + "\n\n"
        + captured.toString(StandardCharsets.UTF_8)
        + (refused == null ? "" : "refused: " + refused + "\n");
  }

  /**
   * An unordered scenario runs its iterations in a random order (by design: no configuration always
   * runs first); their lines are compared sorted.
   */
  private static String sortIterations(String text) {
    List<String> lines = new ArrayList<>(text.lines().toList());
    int i = 0;
    while (i < lines.size()) {
      int j = i;
      while (j < lines.size() && ITERATION.matcher(lines.get(j)).find()) {
        j++;
      }
      if (j > i + 1) {
        lines.subList(i, j).sort(null);
      }
      i = Math.max(j, i + 1);
    }
    return String.join("\n", lines) + (text.endsWith("\n") ? "\n" : "");
  }

  private static final Pattern ITERATION = Pattern.compile("^\\s+\\S+-i\\d+: ");

  /** {@code actual}, with what differs from run to run made constant, against the golden file. */
  private static void compare(String file, String actual) throws Exception {
    String normal =
        actual
            .replace(ROOT.toString(), "ROOT")
            .replace(scratch.toString(), "SCRATCH")
            // Up to the next comma, bracket or white space: not across a line's end.
            .replaceAll("/tmp/ingestbench-flink[^,\\]\\s]*", "FLINK_CONF_DIR")
            .replaceAll("round-\\d{8}-\\d{6}-[0-9a-f]{6}", "RUN_ID")
            .replaceAll("\\b[a-z0-9-]+-\\d{8}-\\d{6}(-[0-9a-f]{6})?\\b", "RUN_ID")
            // The local machine's CPU model, which a result label names.
            .replaceAll("machine=(?!dataflow )[^,}]*", "machine=MACHINE")
            .replaceAll("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z", "TIME");
    normal = sortIterations(normal);
    Path golden = GOLDEN.resolve(file);
    if (UPDATE || !Files.exists(golden)) {
      Files.createDirectories(GOLDEN);
      Files.writeString(golden, normal);
      assertTrue(UPDATE, golden + " was missing: written; run again to compare");
      return;
    }
    if (!Files.readString(golden).equals(normal)) {
      Path actualFile = Path.of("target", "golden-actual").resolve(file);
      Files.createDirectories(actualFile.getParent());
      Files.writeString(actualFile, normal);
      assertEquals(
          Files.readString(golden),
          normal,
          "behaviour changed: diff "
              + golden
              + " "
              + actualFile
              + " (intended: -Dgolden.update=true)");
    }
  }
}
