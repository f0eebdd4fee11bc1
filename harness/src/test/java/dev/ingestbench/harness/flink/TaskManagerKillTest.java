package dev.ingestbench.harness.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TaskManagerKillTest {
  @Test
  void killsOnceTheGivenSecondsAfterEveryJobWrites() throws Exception {
    AtomicLong now = new AtomicLong();
    AtomicInteger kills = new AtomicInteger();
    TaskManagerKill kill = new TaskManagerKill(10, now::get);
    TaskManagerKill.Killer killer = kills::incrementAndGet;
    now.set(60_000_000_000L); // a minute of submission: not counted
    assertFalse(kill.tick(false, killer));
    now.addAndGet(1_000_000_000L);
    assertFalse(kill.tick(true, killer), "writing starts now");
    now.addAndGet(9_000_000_000L);
    assertFalse(kill.tick(true, killer), "9 s of writing");
    now.addAndGet(1_000_000_000L);
    assertTrue(kill.tick(true, killer), "10 s");
    now.addAndGet(60_000_000_000L);
    assertFalse(kill.tick(true, killer), "once");
    assertEquals(1, kills.get());
  }
}
