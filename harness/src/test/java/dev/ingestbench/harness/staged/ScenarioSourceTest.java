package dev.ingestbench.harness.staged;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.harness.source.KafkaFeed;
import dev.ingestbench.harness.source.PubsubFeed;
import dev.ingestbench.scenario.ScenarioFile;
import dev.ingestbench.scenario.ScenarioPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a run does differently for its source is the source's to say: the consumer groups and
 * partitions round.json records, what a feed gives and names.
 */
class ScenarioSourceTest {
  @TempDir Path dir;

  private ScenarioSource source(String sourceLine, String jobs) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("s.yaml"),
            "name: t\n"
                + "source: "
                + sourceLine
                + "\n"
                + "publish: {messages: 1000, backlog: 1000}\n"
                + "jobs: "
                + jobs
                + "\n"
                + "stages:\n"
                + "  - {name: one, start: [a], until: drained, max: 1m}\n");
    return ScenarioSource.of(ScenarioPlan.of(ScenarioFile.load(file), 1, 0));
  }

  @Test
  void kafkaSaysItsPartitionsAndHowMoreThanOneJobShareIt() throws Exception {
    ScenarioSource shared =
        source(
            "{kind: kafka, topic: rides, partitions: 8, consumer_groups: shared}",
            "{a: {}, b: {}}");
    assertEquals(Optional.of(8), shared.partitions());
    assertEquals(Optional.of("shared"), shared.consumerGroups());
    assertEquals("rides", shared.fedTopic());
    assertEquals("the topic, kept ahead of every job", shared.fedWhere());
    assertEquals(KafkaFeed.high(500), shared.feedHigh());

    ScenarioSource separate =
        source("{kind: kafka, topic: rides, partitions: 8}", "{a: {}, b: {}}");
    assertEquals(Optional.of("separate"), separate.consumerGroups());

    ScenarioSource alone = source("{kind: kafka, topic: rides}", "{a: {}}");
    assertEquals(Optional.empty(), alone.consumerGroups(), "one job shares nothing");
  }

  @Test
  void pubsubHasNeitherPartitionsNorGroupsAndFeedsEachJobItsOwnTopic() throws Exception {
    ScenarioSource pubsub = source("{kind: pubsub, topic: rides}", "{a: {}, b: {}}");
    assertEquals(Optional.empty(), pubsub.partitions());
    assertEquals(Optional.empty(), pubsub.consumerGroups());
    assertEquals("one topic per job (" + RunFiles.FEED + ")", pubsub.fedTopic());
    assertEquals("each job its own topic, named as its subscription", pubsub.fedWhere());
    assertEquals(PubsubFeed.high(500), pubsub.feedHigh());
  }
}
