package dev.ingestbench.harness.spec;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The flags of the publishers a round or a scenario starts, as their rate decides them. */
class PublisherFlagsTest {
  private static List<String> at(double rate) {
    return ChildFlags.Publisher.pubsub("127.0.0.1:1", "projects/p/topics/t", List.of("s"))
        .rate(rate)
        .build();
  }

  @Test
  void aPacedPublisherOfAFewHundredMessagesASecondRunsOneShard() {
    List<String> flags = at(400);
    assertTrue(flags.contains("--ratePerSecond=400.0"), flags.toString());
    assertTrue(flags.contains("--publisherShards=1"), flags.toString());
    assertTrue(flags.contains("--runner=FlinkRunner"), "paced on embedded Flink: " + flags);
    assertTrue(at(ChildFlags.Publisher.ONE_SHARD_MAX_RATE).contains("--publisherShards=1"));
  }

  @Test
  void aFasterPacedPublisherAndABacklogKeepOneShardPerCore() {
    List<String> fast = at(ChildFlags.Publisher.ONE_SHARD_MAX_RATE + 1);
    assertTrue(fast.stream().noneMatch(f -> f.startsWith("--publisherShards")), fast.toString());
    List<String> backlog = at(0);
    assertTrue(
        backlog.stream().noneMatch(f -> f.startsWith("--publisherShards")), backlog.toString());
    assertFalse(
        backlog.stream().anyMatch(f -> f.startsWith("--ratePerSecond")),
        "a backlog goes as fast as it can: " + backlog);
  }
}
