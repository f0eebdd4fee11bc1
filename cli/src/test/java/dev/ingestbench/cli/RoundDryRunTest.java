package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.ExitCodes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code round --dry-run}: every step and command line of the round, and nothing started or written
 * (its golden texts are GoldenBehaviourTest's round-NN files).
 */
class RoundDryRunTest {
  @Test
  void printsEveryStepAndWritesNothing(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("r");
    // What an earlier test of this JVM may have left stopping is not this test's.
    java.util.Set<Long> before =
        ProcessHandle.current()
            .descendants()
            .map(ProcessHandle::pid)
            .collect(java.util.stream.Collectors.toSet());
    PrintStream original = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    int exit;
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      exit =
          IngestbenchCommand.commandLine()
              .execute(
                  "round",
                  "--out",
                  out.toString(),
                  "--jobs",
                  "2",
                  "--kill-consumer-at",
                  "20",
                  "--dry-run");
    } finally {
      System.setOut(original);
    }
    String text = printed.toString(StandardCharsets.UTF_8);
    assertEquals(ExitCodes.OK, exit, text);
    assertTrue(text.startsWith("Would run a round locally into " + out + ":"), text);
    assertTrue(text.contains("  stage 1/1 round:"), text);
    assertTrue(
        text.contains("    start job job-1: ingestbench consume --runner=FlinkRunner"), text);
    assertTrue(text.contains("    start job job-2: ingestbench consume"), text);
    assertTrue(
        text.contains("    kill each running job's consumer (SIGKILL) 20s into the stage"), text);
    assertTrue(
        text.contains("publish 100,000 live messages (event indexes 200,000-299,999)"), text);
    assertFalse(Files.exists(out), "a dry run writes nothing");
    assertEquals(
        java.util.List.of(),
        ProcessHandle.current()
            .descendants()
            .filter(p -> !before.contains(p.pid()))
            .map(p -> p.info().command().orElse("?"))
            .toList(),
        "and starts nothing");
  }
}
