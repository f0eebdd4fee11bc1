package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Nothing built goes into git: every clone carries a tracked file for ever (a 243 MB Flex Template
 * jar once was). Reads what git tracks, so a build output that is added fails here before it lands.
 */
class TrackedFilesTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** Larger than any source, document or test resource of the project; smaller than any jar. */
  private static final long MAX_TRACKED_BYTES = 2_000_000;

  @Test
  void noTrackedFileIsLargeOrABuildOutput() throws IOException, InterruptedException {
    assumeTrue(Files.exists(ROOT.resolve(".git")), "not a git checkout: nothing is tracked");
    List<String> tracked = trackedFiles();
    assertTrue(tracked.size() > 100, "git listed only " + tracked.size() + " files");
    List<String> offending = new ArrayList<>();
    for (String name : tracked) {
      Path file = ROOT.resolve(name);
      if (isBuildOutput(name)) {
        offending.add(name + " (a build output: add it to .gitignore and git rm --cached it)");
      } else if (Files.isRegularFile(file) && Files.size(file) > MAX_TRACKED_BYTES) {
        offending.add(name + " (" + Files.size(file) / 1_000_000 + " MB: make it in the build)");
      }
    }
    assertEquals(List.of(), offending, "tracked files that do not belong in git");
  }

  @Test
  void aJarOrATargetDirectoryIsABuildOutput() {
    assertTrue(isBuildOutput("consumer/flex-template/ingestbench-consumer-flex.jar"));
    assertTrue(isBuildOutput("harness/target/classes/Foo.class"));
    assertTrue(isBuildOutput("target/x"));
    assertTrue(!isBuildOutput("docs/targets.md"));
  }

  static boolean isBuildOutput(String name) {
    return name.endsWith(".jar")
        || name.endsWith(".class")
        || name.startsWith("target/")
        || name.contains("/target/");
  }

  private static List<String> trackedFiles() throws IOException, InterruptedException {
    Process git = new ProcessBuilder("git", "ls-files", "-z").directory(ROOT.toFile()).start();
    byte[] out = git.getInputStream().readAllBytes();
    assertTrue(git.waitFor(60, TimeUnit.SECONDS), "git ls-files did not end");
    assertEquals(0, git.exitValue(), "git ls-files failed: is the checkout a git repository?");
    return Arrays.stream(new String(out, StandardCharsets.UTF_8).split("\0"))
        .filter(s -> !s.isEmpty())
        .toList();
  }
}
