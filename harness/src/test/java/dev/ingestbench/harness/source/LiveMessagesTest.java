package dev.ingestbench.harness.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.RateProfile;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.SendSchedule;
import dev.ingestbench.events.TaxiRideGenerator;
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
 * What a run's live messages say was published, which every job is verified against: the indexes
 * after the backlog's, each sent once; what the source acknowledged; nothing when not every message
 * was answered.
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

  /**
   * A client that answers every send only once the last was sent (a batch that goes late): the ones
   * from {@code refusedFrom} on are refused.
   */
  private static final class AnsweringLate implements EventSender {
    final List<Long> indexes = new CopyOnWriteArrayList<>();
    final List<PublishOutcomes> outcomes = new CopyOnWriteArrayList<>();
    final long refusedFrom;

    AnsweringLate(long refusedFrom) {
      this.refusedFrom = refusedFrom;
    }

    @Override
    public synchronized void send(
        long index, byte[] payload, long sentAtMillis, PublishOutcomes outcome) {
      indexes.add(index);
      outcomes.add(outcome);
    }

    /** Answers what was sent since the last flush, each once. */
    @Override
    public synchronized void flush() {
      for (int i = 0; i < indexes.size(); i++) {
        if (indexes.get(i) >= refusedFrom) {
          outcomes.get(i).onFailure(new IllegalStateException("refused " + indexes.get(i)));
        } else {
          outcomes.get(i).onSuccess("id-" + indexes.get(i));
        }
      }
      indexes.clear();
      outcomes.clear();
    }

    @Override
    public void close() {}
  }

  private Path result() {
    return dir.resolve("publisher_live.json");
  }

  private void publish(Answering sender, Duration max) throws Exception {
    try (LiveMessages live =
        new LiveMessages(
            sender,
            new TaxiRideGenerator(1, 500),
            step -> {},
            new LiveMessages.Load("rides", 500, 100, 50, 2_000, null),
            result(),
            "run-1",
            line -> {})) {
      live.finish(max);
    }
  }

  /**
   * Every message answered, some refused only after the last was sent: a run whose jobs wait for
   * every live message (a round's) gets no result and is told so; one verified against what was
   * acknowledged (a scenario's) gets that.
   */
  @Test
  void messagesRefusedAfterTheLastWasSentLeaveNoResultWhenEveryOneIsNeeded() throws Exception {
    for (boolean everyOne : List.of(true, false)) {
      Files.deleteIfExists(result());
      boolean written;
      try (LiveMessages live =
          new LiveMessages(
              new AnsweringLate(120),
              new TaxiRideGenerator(1, 500),
              step -> {},
              new LiveMessages.Load("rides", 500, 100, 50, 2_000, null),
              result(),
              "run-1",
              line -> {})) {
        written = live.finish(Duration.ofSeconds(30), everyOne);
      }
      assertEquals(!everyOne, written, "every one needed: " + everyOne);
      assertEquals(!everyOne, Files.exists(result()), "every one needed: " + everyOne);
      if (!everyOne) {
        assertEquals(20, RunJson.read(result(), PublisherResult.class).published());
      }
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
    assertEquals("run-1", r.runId(), "the run's files name their run");
  }

  @Test
  void aProfileTellsEachStepToTheScheduleAtItsFirstIndexAndTakesItsTime() throws Exception {
    List<SendSchedule> told = new CopyOnWriteArrayList<>();
    Answering sender = new Answering(index -> false, true);
    RateProfile profile = RateProfile.parse("--live-profile", "1x:1s,2x:1s,1x:1s");
    long started = System.nanoTime();
    try (LiveMessages live =
        new LiveMessages(
            sender,
            new TaxiRideGenerator(1, 500),
            told::add,
            new LiveMessages.Load("rides", 500, 100, 80, 20, profile),
            result(),
            "run-1",
            line -> {})) {
      assertTrue(live.finish(Duration.ofSeconds(30)));
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    assertEquals(List.of(100L, 120L, 160L), told.stream().map(SendSchedule::firstIndex).toList());
    assertEquals(
        List.of(20.0, 40.0, 20.0), told.stream().map(SendSchedule::messagesPerSecond).toList());
    long firstStart = told.get(0).startEpochMicros();
    assertEquals(1_000_000, told.get(1).startEpochMicros() - firstStart, 1_000, "1 s after");
    assertEquals(2_000_000, told.get(2).startEpochMicros() - firstStart, 1_000, "2 s after");
    assertEquals(80, sender.sent.size());
    // The last message is due 20 + 40 + 19 messages in: 2.95 s after the first.
    assertTrue(seconds >= 2.9, "paced, not sent at once: " + seconds + " s");
    assertEquals(80, RunJson.read(result(), PublisherResult.class).published());
  }

  /** A stage's profile: the rate steps from now, by time, and returns to the load's after. */
  @Test
  void stepsThroughAProfileFromNowAndReturnsToTheRateAfterIt() throws Exception {
    List<SendSchedule> told = new CopyOnWriteArrayList<>();
    Answering sender = new Answering(index -> false, true);
    try (LiveMessages live =
        new LiveMessages(
            sender,
            new TaxiRideGenerator(1, 500),
            told::add,
            new LiveMessages.Load("rides", 500, 0, 60, 20, null),
            result(),
            "run-1",
            line -> {})) {
      live.stepThrough(RateProfile.parse("live_profile", "2x:1s"));
      assertTrue(live.finish(Duration.ofSeconds(30)));
      live.stepThrough(null); // after the last message: nothing to step
    }
    List<Double> rates = told.stream().map(SendSchedule::messagesPerSecond).toList();
    assertEquals(List.of(40.0, 20.0), rates.subList(rates.size() - 2, rates.size()), "" + told);
    long backAt = told.get(told.size() - 1).firstIndex();
    assertTrue(backAt >= 36 && backAt <= 44, "a second at 40/s before 1x again: " + told);
    assertEquals(60, sender.sent.size());
  }

  /** A rate asked for after the last message (a stage's end) changes nothing and fails nothing. */
  @Test
  void aFinishedPublisherTakesARateWithoutFailing() throws Exception {
    Answering sender = new Answering(index -> false, true);
    try (PacedPublisher p =
        new PacedPublisher(sender, new TaxiRideGenerator(1, 500), step -> {}, 0, 5)) {
      p.rate(1_000);
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (!p.finished() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertTrue(p.finished());
      p.rate(2_000); // its loop has ended: a second start would throw
      p.pause();
      assertEquals(null, p.failure());
      assertThrows(
          IllegalStateException.class,
          () -> p.profile(10, RateProfile.parse("live_profile", "1x:1s")),
          "a profile once sending has started would be overridden by it");
    }
    assertEquals(5, sender.sent.size());
  }

  @Test
  void aProfileThatDoesNotSendTheCountIsRefused() {
    RateProfile profile = RateProfile.parse("--live-profile", "1x:1s,2x:1s");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new LiveMessages.Load("rides", 500, 0, 100, 20, profile));
    assertTrue(e.getMessage().contains("sends 60 messages, not 100"), e.getMessage());
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
