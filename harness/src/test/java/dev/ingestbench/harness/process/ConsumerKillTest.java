package dev.ingestbench.harness.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When a consumer is killed (once, or again and again) and which checkpoint it is restored from:
 * the newest completed one, never a partial one. The schedule runs on a hand-moved clock with
 * stand-in processes; the real kills are RoundCommandTest's.
 */
class ConsumerKillTest {
  private static final long SECOND = 1_000_000_000L;

  /** A stand-in consumer process: alive until killed or stopped. */
  private static final class FakeConsumer implements ConsumerKill.Killable {
    final String name;
    final int life;
    boolean alive = true;

    FakeConsumer(String name, int life) {
      this.name = name;
      this.life = life;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public boolean isAlive() {
      return alive;
    }

    @Override
    public void kill() {
      alive = false;
    }
  }

  private static void checkpoint(Path dir, String job, int n) throws Exception {
    Path chk = dir.resolve(job).resolve("chk-" + n);
    Files.createDirectories(chk);
    Files.writeString(chk.resolve("_metadata"), "m");
  }

  @Test
  void killConsumerAtKillsEachConsumerOnceAndRestoresTheNewestCheckpoint(@TempDir Path dir)
      throws Exception {
    AtomicLong now = new AtomicLong();
    long[] accounted = {0};
    List<String> restores = new ArrayList<>();
    ConsumerKill<FakeConsumer> kill =
        new ConsumerKill<>(
            10L,
            null,
            List.of(dir),
            (j, life, chk) -> {
              restores.add(life + ":" + chk.getFileName());
              return new FakeConsumer("consumer", life);
            },
            j -> accounted[0],
            now::get);
    List<FakeConsumer> consumers = new ArrayList<>(List.of(new FakeConsumer("consumer", 1)));
    now.set(9 * SECOND);
    checkpoint(dir, "a", 1);
    kill.tick(consumers);
    assertEquals(List.of(), restores, "not before its time");
    now.set(10 * SECOND);
    checkpoint(dir, "a", 2);
    kill.tick(consumers);
    assertEquals(
        List.of(),
        restores,
        "no row yet: a checkpoint from before the source started holds no reader to restore");
    checkpoint(dir, "b", 3);
    accounted[0] = 900;
    kill.tick(consumers);
    assertEquals(List.of(), restores, "chk-3 may predate the rows");
    checkpoint(dir, "b", 4);
    kill.tick(consumers);
    assertEquals(List.of("2:chk-4"), restores, "the first checkpoint after the rows");
    checkpoint(dir, "b", 5);
    now.set(100 * SECOND);
    kill.tick(consumers);
    assertEquals(List.of("2:chk-4"), restores, "--kill-consumer-at kills once");
    assertTrue(consumers.get(0).alive && consumers.get(0).life == 2);
  }

  @Test
  void crashEveryKillsEachLifeAfterItHasWrittenThatLongOnceACheckpointHoldsTheWork(
      @TempDir Path dir) throws Exception {
    AtomicLong now = new AtomicLong();
    long[] accounted = {0};
    List<String> restores = new ArrayList<>();
    ConsumerKill<FakeConsumer> kill =
        new ConsumerKill<>(
            null,
            5L,
            List.of(dir),
            (j, life, chk) -> {
              restores.add(life + ":" + chk.getFileName());
              return new FakeConsumer("consumer", life);
            },
            j -> accounted[0],
            now::get);
    List<FakeConsumer> consumers = new ArrayList<>(List.of(new FakeConsumer("consumer", 1)));
    checkpoint(dir, "a", 1);
    now.set(20 * SECOND);
    kill.tick(consumers);
    assertEquals(
        List.of(),
        restores,
        "20 s and a checkpoint, but nothing written: its clock has not started");
    accounted[0] = 1_000;
    kill.tick(consumers); // life 1 starts writing at 20 s
    checkpoint(dir, "a", 2);
    now.set(24 * SECOND);
    kill.tick(consumers);
    assertEquals(List.of(), restores, "4 s of writing: not due");
    now.set(25 * SECOND);
    kill.tick(consumers);
    assertEquals(
        List.of("2:chk-2"), restores, "5 s of writing, and chk-2 completed after the first rows");

    checkpoint(dir, "b", 3);
    now.set(40 * SECOND);
    kill.tick(consumers);
    assertEquals(
        1, restores.size(), "life 2 has a newer checkpoint but has written nothing: not due");
    accounted[0] = 2_000;
    kill.tick(consumers); // life 2 starts writing at 40 s; chk-3 predates that
    now.set(46 * SECOND);
    kill.tick(consumers);
    assertEquals(1, restores.size(), "due, but no checkpoint holds life 2's rows yet");
    checkpoint(dir, "b", 4);
    kill.tick(consumers);
    assertEquals(List.of("2:chk-2", "3:chk-4"), restores, "killed as soon as one does");

    accounted[0] = 2_500;
    now.set(50 * SECOND);
    kill.tick(consumers); // life 3 starts writing at 50 s
    checkpoint(dir, "c", 5);
    now.set(54 * SECOND);
    kill.tick(consumers);
    assertEquals(2, restores.size(), "life 3 has written for 4 s");
    consumers.get(0).alive = false; // it wrote every message and stopped by itself
    now.set(60 * SECOND);
    kill.tick(consumers);
    kill.tick(consumers);
    assertEquals(
        List.of("2:chk-2", "3:chk-4"),
        restores,
        "a consumer that stopped by itself is not restarted");
  }

  @Test
  void crashEveryAfterKillConsumerAtStartsAtThatTime(@TempDir Path dir) throws Exception {
    AtomicLong now = new AtomicLong();
    long[] accounted = {0, 0};
    List<String> restores = new ArrayList<>();
    ConsumerKill<FakeConsumer> kill =
        new ConsumerKill<>(
            20L,
            8L,
            List.of(dir, dir.resolve("two")),
            (j, life, chk) -> {
              restores.add(j + "/" + life);
              return new FakeConsumer("consumer-" + j, life);
            },
            j -> accounted[j],
            now::get);
    List<FakeConsumer> consumers =
        new ArrayList<>(
            List.of(new FakeConsumer("consumer-1", 1), new FakeConsumer("consumer-2", 1)));
    accounted[0] = 10;
    accounted[1] = 10;
    kill.tick(consumers);
    checkpoint(dir, "a", 1);
    checkpoint(dir.resolve("two"), "a", 1);
    now.set(8 * SECOND);
    kill.tick(consumers);
    assertEquals(List.of(), restores, "the first kill waits for --kill-consumer-at");
    now.set(20 * SECOND);
    kill.tick(consumers);
    assertEquals(List.of("1/2", "2/2"), restores, "every consumer, each on its own checkpoints");
  }

  @Test
  void theNewestCheckpointWithMetadataIsChosen(@TempDir Path dir) throws Exception {
    assertTrue(
        ConsumerKill.latestCheckpoint(dir.resolve("none")).isEmpty(),
        "no directory: nothing to restore");
    Path job = dir.resolve("0f3c9a");
    Files.createDirectories(job.resolve("chk-9"));
    Files.writeString(job.resolve("chk-9").resolve("_metadata"), "m");
    Files.createDirectories(job.resolve("chk-10"));
    Files.writeString(job.resolve("chk-10").resolve("_metadata"), "m");
    Files.createDirectories(
        job.resolve("chk-11")); // being written when the JVM was killed: no _metadata yet
    Files.createDirectories(job.resolve("shared"));
    assertEquals(
        job.resolve("chk-10"),
        ConsumerKill.latestCheckpoint(dir).orElseThrow(),
        "chk-10, not chk-9 (older) and not chk-11 (incomplete); 10 > 9 by number, not by name");
  }

  /**
   * Flink deletes the previous checkpoint whenever a new one completes; a walk that meets a
   * directory removed under it must look again rather than fail the round.
   */
  @Test
  void aCheckpointRemovedDuringTheWalkIsNotAnError(@TempDir Path dir) throws Exception {
    Path job = dir.resolve("0f3c9a");
    Files.createDirectories(job.resolve("chk-1"));
    Files.writeString(job.resolve("chk-1").resolve("_metadata"), "m");
    AtomicBoolean stop = new AtomicBoolean();
    Thread flink =
        new Thread(
            () -> {
              for (int n = 2; !stop.get(); n++) {
                try {
                  Path next = job.resolve("chk-" + n);
                  Files.createDirectories(next.resolve("op"));
                  Files.writeString(next.resolve("op").resolve("state"), "s");
                  Files.writeString(next.resolve("_metadata"), "m");
                  Path old = job.resolve("chk-" + (n - 1));
                  Files.delete(old.resolve("_metadata"));
                  Files.delete(old.resolve("op").resolve("state"));
                  Files.delete(old.resolve("op"));
                  Files.delete(old);
                } catch (IOException e) {
                  Files.exists(job); // chk-1 has no op/ directory: nothing to do
                }
              }
            });
    Files.createDirectories(job.resolve("chk-1").resolve("op"));
    Files.writeString(job.resolve("chk-1").resolve("op").resolve("state"), "s");
    flink.start();
    try {
      for (int i = 0; i < 20_000; i++) {
        // Empty is allowed (a walk may list the old directory before the new one exists, and meet
        // it
        // deleted): the kill then waits a turn. Once the consumer is killed nothing changes any
        // more.
        ConsumerKill.latestCheckpoint(dir);
      }
    } finally {
      stop.set(true);
      flink.join();
    }
  }
}
