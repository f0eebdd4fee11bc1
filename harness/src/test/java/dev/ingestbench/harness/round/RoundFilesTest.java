package dev.ingestbench.harness.round;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reused --out: an earlier round's files are refused, or with --force deleted, and nothing else
 * is.
 */
class RoundFilesTest {
  @TempDir Path out;

  private void earlierRound() throws Exception {
    Files.writeString(out.resolve("summary.json"), "{}");
    Files.writeString(out.resolve("results.jsonl"), "");
    Files.createDirectories(out.resolve("status"));
    Files.writeString(out.resolve("status").resolve("01-round.json"), "{}");
    Files.createDirectories(out.resolve("job-1"));
    Files.writeString(out.resolve("job-1").resolve("consumer_result.json"), "{}");
    Files.writeString(out.resolve("my-notes.txt"), "mine");
    Files.createDirectories(out.resolve("job-9"));
    Files.writeString(
        out.resolve("job-9").resolve("plan.txt"), "mine too: no consumer_result.json");
  }

  @Test
  void anEarlierRoundIsRefusedWithoutForceAndNothingIsDeleted() throws Exception {
    earlierRound();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> RoundFiles.clearEarlierRound(out, false));
    assertTrue(
        e.getMessage().contains("holds an earlier round's files (summary.json and 3 more)")
            && e.getMessage().contains("--force"),
        e.getMessage());
    assertTrue(
        Files.exists(out.resolve("summary.json"))
            && Files.exists(out.resolve("status").resolve("01-round.json")));
  }

  @Test
  void forceDeletesTheRoundsFilesAndKeepsEverythingElse() throws Exception {
    earlierRound();
    RoundFiles.clearEarlierRound(out, true);
    assertFalse(Files.exists(out.resolve("summary.json")));
    assertFalse(Files.exists(out.resolve("results.jsonl")));
    assertFalse(
        Files.exists(out.resolve("status")),
        "the stage's marker would mark the new round finished");
    assertFalse(Files.exists(out.resolve("job-1")));
    assertEquals("mine", Files.readString(out.resolve("my-notes.txt")));
    assertTrue(Files.exists(out.resolve("job-9").resolve("plan.txt")));
  }

  /**
   * A killed life's log is numbered after the logs already there: an earlier round's must not
   * become this round's consumer.1.log.
   */
  @Test
  void anEarlierRoundsConsumerLogsAreRemovedAndOtherLogsKept() throws Exception {
    for (String log :
        new String[] {
          "consumer.log",
          "consumer-2.log",
          "consumer.1.log",
          "consumer-2.3.log",
          "consumer-restarted.log",
          "consumer-1-restarted-2.log"
        }) {
      Files.writeString(out.resolve(log), "earlier");
    }
    Files.writeString(out.resolve("consumer-notes.log"), "mine");
    Files.writeString(out.resolve("bigquery-emulator.log"), "the server's");
    RoundFiles.clearEarlierLogs(out);
    try (var left = Files.list(out)) {
      assertEquals(
          java.util.Set.of("consumer-notes.log", "bigquery-emulator.log"),
          left.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toSet()));
    }
  }

  @Test
  void anEmptyOutIsFine() throws Exception {
    RoundFiles.clearEarlierRound(out, false);
  }

  /**
   * A Kafka round killed with SIGKILL leaves its broker's data; a rerun with --force starts clean.
   */
  @Test
  void aCrashedKafkaRoundsBrokerDataIsAnEarlierRoundsAndForceClearsIt() throws Exception {
    Files.createDirectories(out.resolve("kafka-data").resolve("taxi-rides-0"));
    Files.writeString(out.resolve("kafka-data").resolve("meta.properties"), "node.id=1");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> RoundFiles.clearEarlierRound(out, false));
    assertTrue(
        e.getMessage().contains("(kafka-data)") && e.getMessage().contains("--force"),
        e.getMessage());
    RoundFiles.clearEarlierRound(out, true);
    assertFalse(Files.exists(out.resolve("kafka-data")));
  }
}
