package dev.ingestbench.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RateProfileTest {
  @Test
  void aProfileReadsItsStepsCountsItsMessagesAndWritesItselfBack() {
    RateProfile p = RateProfile.parse("--live-profile", "1x:60s, 2x:1m,4x:30s,0.5x:60s");
    assertEquals(
        List.of(
            new RateProfile.Step(1, 60),
            new RateProfile.Step(2, 60),
            new RateProfile.Step(4, 30),
            new RateProfile.Step(0.5, 60)),
        p.steps());
    // 1,000 msg/s for 1x: 60,000 + 120,000 + 120,000 + 30,000
    assertEquals(330_000, p.messages(1_000));
    assertEquals(210, p.seconds());
    assertEquals("1x:60s,2x:60s,4x:30s,0.5x:60s", p.toString());
    assertEquals(p, RateProfile.parse("--live-profile", p.toString()));
  }

  @Test
  void aMalformedProfileNamesTheFlagTheStepAndTheFix() {
    for (String bad : List.of("", "2x", "x:60s", "0x:60s", "1x:500ms", "1x:60", "1x:60s;2x:60s")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> RateProfile.parse("--live-profile", bad), bad);
      assertTrue(
          e.getMessage().startsWith("--live-profile") && e.getMessage().contains("e.g."),
          e.getMessage());
    }
  }

  @Test
  void aPacerStepsThroughTheProfileOnTime() throws Exception {
    // 2,000 msg/s for 50 ms (100 messages), then 10,000 msg/s
    SendPacer pacer = new SendPacer(1_000, 2_000, RateProfile.parse("-p", "1x:1s,5x:1s"));
    // taken before the pacer starts, so a wait measured from here is never shorter than the due
    // time
    long start = System.nanoTime();
    List<SendSchedule> steps = pacer.start();
    assertEquals(2, steps.size());
    assertEquals(1_000, steps.get(0).firstIndex());
    assertEquals(3_000, steps.get(1).firstIndex());
    assertEquals(10_000, steps.get(1).messagesPerSecond());
    assertEquals(1_000_000, steps.get(1).startEpochMicros() - steps.get(0).startEpochMicros());
    long before = System.nanoTime();
    pacer.awaitTurn(1_000); // due at once
    assertTrue(System.nanoTime() - before < 50_000_000L);
    pacer.awaitTurn(1_200); // 100 ms in
    long waited = (System.nanoTime() - start) / 1_000_000;
    assertTrue(waited >= 99 && waited < 600, waited + " ms");
    pacer.awaitTurn(3_500); // the second step: 1 s + 50 ms in
    waited = (System.nanoTime() - start) / 1_000_000;
    assertTrue(waited >= 1_049 && waited < 1_700, waited + " ms");
  }
}
