package dev.ingestbench.consumer.local;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class QuietDrainTest {
  private static final long S = 1_000_000_000L;

  @Test
  void everythingReadAndNothingWrittenForTheQuietPeriodIsAnAnswer() {
    QuietDrain quiet = new QuietDrain(100, 30, 0);
    assertFalse(quiet.answerKnown(100, 95, 7, 0, 95, 1 * S), "a change starts the quiet period");
    assertFalse(quiet.answerKnown(100, 95, 7, 0, 95, 30 * S), "29 s quiet");
    assertTrue(quiet.answerKnown(100, 95, 7, 0, 95, 31 * S), "30 s quiet: 5 are lost");
    assertTrue(quiet.stopReason().startsWith(QuietDrain.STOP_REASON), quiet.stopReason());
  }

  @Test
  void aRowOrAReadRestartsTheQuietPeriod() {
    QuietDrain quiet = new QuietDrain(100, 30, 0);
    quiet.answerKnown(100, 95, 7, 0, 95, 0);
    assertFalse(quiet.answerKnown(100, 96, 7, 0, 96, 29 * S), "a row was written");
    assertFalse(quiet.answerKnown(100, 96, 7, 0, 96, 58 * S));
    assertTrue(quiet.answerKnown(100, 96, 7, 0, 96, 59 * S));
  }

  @Test
  void anAppendThatIsRefusedAndRetriedRestartsTheQuietPeriod() {
    QuietDrain quiet = new QuietDrain(100, 30, 0);
    quiet.answerKnown(100, 95, 7, 0, 95, 0);
    assertFalse(quiet.answerKnown(100, 95, 8, 0, 95, 29 * S), "a refused append: still writing");
    assertFalse(quiet.answerKnown(100, 95, 8, 0, 95, 58 * S));
    assertTrue(quiet.answerKnown(100, 95, 8, 0, 95, 59 * S));
  }

  @Test
  void anAppendHeldUnansweredKeepsTheJobBusy() {
    QuietDrain quiet = new QuietDrain(100, 30, 0);
    quiet.answerKnown(100, 95, 7, 1, 95, 0);
    assertFalse(quiet.answerKnown(100, 95, 7, 1, 95, 120 * S), "a quota holds an append");
    assertFalse(quiet.answerKnown(100, 95, 7, 0, 95, 121 * S), "answered: the quiet starts");
    assertTrue(quiet.answerKnown(100, 95, 7, 0, 95, 152 * S));
  }

  @Test
  void aMessageNotYetReadOrACompleteRunOrNoQuietPeriodIsNoAnswer() {
    QuietDrain unread = new QuietDrain(100, 30, 0);
    unread.answerKnown(99, 95, 7, 0, 95, 0);
    assertFalse(unread.answerKnown(99, 95, 7, 0, 95, 600 * S), "one message not read: it may come");

    QuietDrain complete = new QuietDrain(100, 30, 0);
    complete.answerKnown(100, 100, 7, 0, 100, 0);
    assertFalse(complete.answerKnown(100, 100, 7, 0, 100, 600 * S), "complete: the normal stop");

    QuietDrain off = new QuietDrain(100, 0, 0);
    off.answerKnown(100, 95, 7, 0, 95, 0);
    assertFalse(off.answerKnown(100, 95, 7, 0, 95, 600 * S), "--quietPeriodSeconds=0: never");

    QuietDrain noTarget = new QuietDrain(0, 30, 0);
    noTarget.answerKnown(0, 95, 7, 0, 95, 0);
    assertFalse(noTarget.answerKnown(0, 95, 7, 0, 95, 600 * S), "no --expectedMessages: never");
  }
}
