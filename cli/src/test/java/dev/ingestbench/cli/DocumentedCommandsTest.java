package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.bigquery.BigQueryEmulatorCommand;
import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.consumer.ConsumerPipeline;
import dev.ingestbench.consumer.local.LocalConsumer;
import dev.ingestbench.harness.round.RoundPlan;
import dev.ingestbench.harness.scenario.ScenarioRunner;
import dev.ingestbench.publisher.PublishSettings;
import dev.ingestbench.publisher.PublisherPipeline;
import dev.ingestbench.pubsubload.PubsubLoadCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every command line in README.md and docs/, taken from their code blocks and expanded by bash
 * exactly as a user's shell would (variables set earlier in the same file included), then:
 *
 * <ul>
 *   <li>{@code ingestbench ...}: parsed by the real command line; {@code round}, {@code consume}
 *       and {@code publish} also validate every flag of every process they would start, with the
 *       same code those processes run ({@code RoundCommandTest} runs a small round for real);
 *   <li>{@code mvnw -pl consumer|consumer-local|publisher exec:java -Dexec.args=...}: the
 *       pipeline's own parse and validation of those arguments (GCP runs cannot go further here);
 *   <li>{@code scripts/...}: run with {@code --dry-run}, which prints what it would do.
 * </ul>
 */
@Tag("e2e")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class DocumentedCommandsTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern EXEC_ARGS = Pattern.compile("-Dexec\\.args=(.*)", Pattern.DOTALL);
  @TempDir static Path scratch; // dry runs' --out directories, removed after the class

  /** One command line of a document, already split into words by bash. */
  record Documented(String file, String line, List<String> words) {}

  @TestFactory
  Stream<DynamicTest> everyDocumentedCommandRunsAsWritten() throws Exception {
    List<Documented> commands = new ArrayList<>();
    List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
      files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    for (Path doc : docs) {
      commands.addAll(commandsOf(doc));
    }
    assertTrue(commands.size() >= 20, "found only " + commands.size() + " documented commands");
    return commands.stream()
        .map(c -> DynamicTest.dynamicTest(c.file() + ": " + c.line(), () -> check(c)));
  }

  private static void check(Documented c) throws Exception {
    List<String> w = c.words();
    String program = w.get(0);
    if (program.endsWith("ingestbench")) {
      checkIngestbench(w.subList(1, w.size()));
    } else if (program.endsWith("mvnw")) {
      checkMaven(w);
    } else if (program.startsWith("scripts/")) {
      checkScript(w);
    } else {
      throw new AssertionError("no check for " + program);
    }
  }

  private static void checkIngestbench(List<String> args) throws Exception {
    CommandLine cli = IngestbenchCommand.commandLine();
    CommandLine.ParseResult parsed = cli.parseArgs(args.toArray(new String[0]));
    CommandLine.ParseResult sub = parsed.subcommand();
    assertTrue(sub != null, "names a command: " + args);
    Object command = sub.commandSpec().userObject();
    if (command instanceof RoundCommand round) {
      if (round.out == null) {
        round.out = Path.of("runs", "documented");
      }
      new RoundPlan(round.spec()); // throws on any flag a process of the round would refuse
    } else if (command instanceof ConsumeCommand consume) {
      ConsumerConfig.from(LocalConsumer.parse(consume.beamArgs.toArray(new String[0])));
    } else if (command instanceof BigQueryEmulatorCommand bigQuery) {
      bigQuery.settings(); // limits and faults checked as the server checks them
    } else if (command instanceof RunCommand run) {
      // A dry run loads the scenario, scales it and checks every process's flags; it starts
      // nothing.
      run.file = ROOT.resolve(run.file);
      run.out = Files.createTempDirectory(scratch, "documented-run").resolve("out");
      run.dryRun = true;
      assertEquals(0, new ScenarioRunner(run.spec()).run(), "dry run of " + args);
    } else if (command instanceof PubsubLoadCommand load) {
      load.validate(); // settings, sweep and grid as a run checks them
    } else if (command instanceof PublishCommand publish) {
      PublishSettings.from(PublisherPipeline.parse(publish.beamArgs.toArray(new String[0])));
    }
  }

  private static void checkMaven(List<String> words) {
    if (!words.contains("exec:java")) {
      assertTrue(
          words.contains("install")
              || words.contains("verify")
              || words.contains("dependency:tree"),
          "a build command: " + words);
      return;
    }
    String module = words.get(words.indexOf("-pl") + 1);
    String execArgs =
        words.stream()
            .map(EXEC_ARGS::matcher)
            .filter(Matcher::matches)
            .map(m -> m.group(1))
            .findFirst()
            .orElseThrow(() -> new AssertionError("exec:java without -Dexec.args: " + words));
    // The exec plugin splits its arguments on white space.
    String[] args =
        Arrays.stream(execArgs.trim().split("\\s+"))
            .filter(a -> !a.isEmpty())
            .toArray(String[]::new);
    switch (module) {
      case "consumer" ->
          assertFalse(
              ConsumerConfig.from(ConsumerPipeline.parse(args)).sink().isLocal(),
              "the pipeline module submits; a local run is -pl consumer-local: " + words);
      case "consumer-local" -> ConsumerConfig.from(LocalConsumer.parse(args));
      case "publisher" -> PublishSettings.from(PublisherPipeline.parse(args));
      case "bigquery-emulator" -> checkEmulatorMain(words, args);
      default -> throw new AssertionError("exec:java of an unknown module " + module);
    }
  }

  /** The server's own flags, or another main class of the module (a benchmark) that must exist. */
  private static void checkEmulatorMain(List<String> words, String[] args) {
    String mainClass =
        words.stream()
            .filter(w -> w.startsWith("-Dexec.mainClass="))
            .findFirst()
            .map(w -> w.substring("-Dexec.mainClass=".length()))
            .orElse(null);
    if (mainClass == null) {
      new CommandLine(new BigQueryEmulatorCommand()).parseArgs(args);
      return;
    }
    String source = mainClass.replace('.', '/') + ".java";
    assertTrue(
        Files.exists(ROOT.resolve("bigquery-emulator/src/main/java").resolve(source))
            || Files.exists(ROOT.resolve("bigquery-emulator/src/test/java").resolve(source)),
        "no class " + mainClass);
    for (int i = 0; i < args.length; i++) {
      if (i == 2) {
        assertTrue(
            args[i].equals("content") || args[i].equals("plain"),
            "the benchmark's third argument is 'content', 'plain' or nothing: " + args[i]);
      } else {
        Long.parseLong(args[i]); // the benchmark takes rows, writers and a table count
      }
    }
  }

  private static void checkScript(List<String> words) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash"));
    command.add(ROOT.resolve(words.get(0)).toString());
    List<String> args = new ArrayList<>(words.subList(1, words.size()));
    if (!args.contains("--dry-run")) {
      int end = args.indexOf("--");
      args.add(end < 0 ? args.size() : end, "--dry-run");
    }
    command.addAll(args);
    Process p =
        new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "script did not finish");
    assertEquals(0, p.exitValue(), out);
    assertFalse(out.isBlank(), "a dry run prints what it would do");
  }

  /** The commands in {@code doc}'s code blocks, expanded by bash with the block's variables. */
  static List<Documented> commandsOf(Path doc) throws IOException, InterruptedException {
    List<Documented> found = new ArrayList<>();
    List<String> assignments = new ArrayList<>();
    boolean inBlock = false;
    StringBuilder pending = new StringBuilder();
    for (String raw : Files.readAllLines(doc)) {
      if (raw.startsWith("```")) {
        inBlock = !inBlock;
        continue;
      }
      if (!inBlock) {
        continue;
      }
      pending.append(raw);
      if (raw.endsWith("\\")) {
        pending.setLength(pending.length() - 1);
        pending.append(' ');
        continue;
      }
      String line = pending.toString().trim();
      pending.setLength(0);
      if (line.matches("^[A-Z_]+=.*")) {
        assignments.add(line);
      } else if (line.matches("^(\\./)?(ingestbench|mvnw) .*|^scripts/.*")) {
        found.add(new Documented(ROOT.relativize(doc).toString(), line, words(assignments, line)));
      }
    }
    return found;
  }

  /** Splits {@code line} into words as bash does, after the assignments that came before it. */
  private static List<String> words(List<String> assignments, String line)
      throws IOException, InterruptedException {
    String script =
        String.join("\n", assignments)
            + "\nprintwords() { printf '%s\\0' \"$@\"; }\nprintwords "
            + line
            + "\n";
    Process p = new ProcessBuilder("bash", "-c", script).redirectErrorStream(false).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(10, TimeUnit.SECONDS));
    List<String> words = new ArrayList<>(Arrays.asList(out.split("\0")));
    words.removeIf(String::isEmpty);
    return words;
  }
}
