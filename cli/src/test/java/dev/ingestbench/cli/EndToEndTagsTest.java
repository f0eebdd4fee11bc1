package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every test class of every module that starts a process (a server, a broker, a child JVM, a tool)
 * is tagged {@code e2e} and has a class-level {@code @Timeout}, so that {@code ./mvnw verify
 * -DexcludedGroups=e2e} starts none, and a hung process fails its test instead of the build's whole
 * time limit. Read from the sources: a new test that starts one without both fails here.
 */
class EndToEndTagsTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** What starts a process in the tests, directly or through the project's own launchers. */
  private static final Pattern STARTS_A_PROCESS =
      Pattern.compile(
          "new ProcessBuilder\\(|PubsubEmulator\\.start\\(|LocalKafka\\.start\\(|"
              + "LocalFlinkCluster\\.start\\(|BigQueryEmulatorProcess\\.start\\(|"
              + "IngestbenchProcess\\.start\\(|ConsumerJvm\\.|LocalPubsub\\b|PstestBinary\\.locate\\(|"
              + "execute\\(\\s*\"(round|run|pubsub-load)\"");

  /** Classes that start a process that cannot hang, and why they are not end-to-end. */
  private static final Map<String, String> NOT_END_TO_END =
      Map.of(
          "LocalRunnerDefaultsTest.java",
          "starts `true` only for the pid of a process that has exited",
          "EndToEndTagsTest.java",
          "names the launchers, starts none",
          "TrackedFilesTest.java",
          "runs only git ls-files, which ends on its own",
          "RoundDryRunTest.java",
          "executes round --dry-run, which starts nothing (the test checks it writes nothing)");

  @Test
  void everyTestThatStartsAProcessIsTaggedAndHasATimeout() throws IOException {
    List<String> missing = new ArrayList<>();
    int found = 0;
    for (Path file : testClasses()) {
      String source = Files.readString(file);
      if (!STARTS_A_PROCESS.matcher(source).find()
          || NOT_END_TO_END.containsKey(file.getFileName().toString())) {
        continue;
      }
      found++;
      boolean tagged = source.contains("\n@Tag(\"e2e\")\n");
      boolean timed = source.contains("\n@Timeout("); // at column 0: the class's, not a method's
      if (!tagged || !timed) {
        missing.add(
            ROOT.relativize(file)
                + (tagged ? "" : " (no @Tag(\"e2e\"))")
                + (timed ? "" : " (no class-level @Timeout)"));
      }
    }
    assertTrue(found >= 25, "found only " + found + " test classes that start a process");
    assertEquals(List.of(), missing, "test classes that start a process");
  }

  /** Every module's {@code src/test/java} classes named {@code *Test}. */
  private static List<Path> testClasses() throws IOException {
    List<Path> classes = new ArrayList<>();
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path tests :
          modules.map(m -> m.resolve("src/test/java")).filter(Files::isDirectory).toList()) {
        try (Stream<Path> files = Files.walk(tests)) {
          files.filter(p -> p.getFileName().toString().endsWith("Test.java")).forEach(classes::add);
        }
      }
    }
    return classes;
  }
}
