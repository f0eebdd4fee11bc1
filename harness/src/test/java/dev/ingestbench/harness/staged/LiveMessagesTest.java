package dev.ingestbench.harness.staged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.harness.source.EventSender;
import dev.ingestbench.pubsub.PublishOutcomes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a scenario's live messages say was published, which every job is verified against: the
 * indexes after the backlog's, each sent once; what the source acknowledged; nothing when not every
 * message was answered.
 */
class LiveMessagesTest {
  @TempDir Path dir;

  /** A client that answers each send at once: acknowledged unless {@code fails} says not. */
  private static final class Answering implements EventSender {
    final List<Long> sent = new CopyOnWriteArrayList<>();
    final LongPredicate fails;
    final boolean answers;

    Answering(LongPredicate fails, boolean answers) {
      this.fails = fails;
      this.answers = answers;
    }

    @Override
    public void send(long index, byte[] payload, long sentAtMillis, PublishOutcomes outcome) {
      sent.add(index);
      if (!answers) {
        return;
      } else if (fails.test(index)) {
        outcome.onFailure(new IllegalStateException("refused " + index));
      } else {
        outcome.onSuccess("id-" + index);
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }

  private Path result() {
    return dir.resolve("publisher_live.json");
  }

  private void publish(Answering sender, Duration max) throws Exception {
    try (LiveMessages live =
        new LiveMessages(
            sender, new TaxiRideGenerator(1, 500), "rides", 500, 100, 50, 2_000, result())) {
      live.finish(max);
    }
  }

  @Test
  void everyLiveIndexIsSentOnceAndItsResultIsWhatWasAcknowledged() throws Exception {
    Answering sender = new Answering(index -> false, true);
    publish(sender, Duration.ofSeconds(30));
    assertEquals(50, sender.sent.size());
    for (int i = 0; i < 50; i++) {
      assertEquals(100 + i, sender.sent.get(i), "after the backlog's 100, in order, once");
    }
    PublisherResult r = RunJson.read(result(), PublisherResult.class);
    assertEquals(50, r.requested());
    assertEquals(50, r.published());
    assertEquals(0, r.publishFailures());
    assertEquals(50 * 500, r.bytesPublished());
  }

  @Test
  void aMessageTheSourceRefusedIsNotCountedAsPublished() throws Exception {
    publish(new Answering(index -> index == 149, true), Duration.ofSeconds(30));
    PublisherResult r = RunJson.read(result(), PublisherResult.class);
    assertEquals(49, r.published(), "the jobs are verified against what was acknowledged");
    assertEquals(1, r.publishFailures());
  }

  @Test
  void aPublisherThatStoppedEarlyOrGotNoRepliesWritesNoResult() throws Exception {
    publish(new Answering(index -> index == 110, true), Duration.ofSeconds(30));
    assertFalse(Files.exists(result()), "a failure stops the sending: not all were published");
    Answering silent = new Answering(index -> false, false);
    publish(silent, Duration.ofSeconds(1));
    assertEquals(50, silent.sent.size());
    assertFalse(Files.exists(result()), "no reply within the time: nothing is known published");
    assertTrue(silent.sent.contains(149L));
  }
}
