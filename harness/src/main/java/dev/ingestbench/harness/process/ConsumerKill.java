package dev.ingestbench.harness.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntToLongFunction;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * {@code round --kill-consumer-at SECONDS} and {@code --crash-every SECONDS}: a consumer JVM is
 * killed (SIGKILL: no hook, no partial result) and started again from its last completed Flink
 * checkpoint ({@code --savepointPath}), as a worker lost mid-bundle is restored. {@code
 * --kill-consumer-at} kills each consumer once, that many seconds after the consumers started;
 * {@code --crash-every} kills it again that many seconds after each of its lives started writing
 * (the first time at {@code --kill-consumer-at} when both are given), until it stops by itself, as
 * Beam's BigQueryStreamingLT crashes its pipeline repeatedly. The BigQuery emulator, a process of
 * its own, keeps verifying the job across every life, so what the restores duplicated or lost shows
 * in the round's counts.
 *
 * <p>A life, the first one of {@code --kill-consumer-at} too, is killed only once the job has moved
 * forward in it (more rows accounted for than when it started) and Flink has completed a checkpoint
 * after that: the restore then starts past where this life started, so the job always gets on,
 * however slowly the machine starts a JVM or hands back leased messages (lives killed at their
 * first checkpoint restored the same position again and again: 22 rows in 9 lives, measured), and
 * the kill tests a restore of state that holds work. Its time counts from its first rows: counted
 * from the JVM's start, lives on a busy machine were killed seconds after they began to write,
 * while the messages the previous life had leased were still coming back (69 rows in 11 lives,
 * measured).
 */
public final class ConsumerKill<C extends ConsumerKill.Killable> {
  /** What is killed: a consumer's process ({@link ChildJvm}). */
  public interface Killable {
    String name();

    boolean isAlive();

    /** Kills it at once (SIGKILL) and waits until it is gone. */
    void kill() throws InterruptedException;
  }

  /**
   * Starts consumer {@code j} (1-based) again, restoring {@code checkpoint}, as its life {@code
   * life} (2 or more).
   */
  public interface Restart<C> {
    C start(int j, int life, Path checkpoint) throws IOException;
  }

  private final Long firstAtSeconds;
  private final Long everySeconds;
  private final List<Path> checkpointDirs;
  private final Restart<C> restart;
  private final IntToLongFunction accounted;
  private final LongSupplier nanoTime;
  private final Map<Integer, Life> lives = new HashMap<>();

  /** Kills so far, every consumer's. */
  private int kills;

  /** The prefix of its lines: {@code round}, or {@code run} in a scenario. */
  private String voice = "round";

  /** How its lines name a consumer: {@code the consumer-2}, or {@code job a's consumer}. */
  private Function<String, String> named = name -> "the " + name;

  /**
   * One consumer's current life: when it started, what it restored, the job's accounted count then,
   * the newest checkpoint when the job first moved forward in it, whether it is over for good.
   */
  private static final class Life {
    static final long NO_PROGRESS = Long.MIN_VALUE;
    final long startNanos;
    final int number;
    final long startAccounted;
    long checkpointAtProgress = NO_PROGRESS;
    long progressNanos;
    boolean finished;
    boolean waitingSaid;

    Life(long startNanos, int number, long startAccounted) {
      this.startNanos = startNanos;
      this.number = number;
      this.startAccounted = startAccounted;
    }
  }

  /**
   * @param firstAtSeconds when to kill every consumer the first time (seconds since now), or null
   *     for {@code everySeconds}
   * @param everySeconds kill each life again this long after it started, or null to kill once
   * @param accounted the rows consumer {@code j} (0-based) has accounted for so far, as its job
   *     counts them
   */
  public ConsumerKill(
      Long firstAtSeconds,
      Long everySeconds,
      List<Path> checkpointDirs,
      Restart<C> restart,
      IntToLongFunction accounted) {
    this(firstAtSeconds, everySeconds, checkpointDirs, restart, accounted, System::nanoTime);
  }

  /** As above, on {@code nanoTime}'s clock (tests move it by hand). */
  ConsumerKill(
      Long firstAtSeconds,
      Long everySeconds,
      List<Path> checkpointDirs,
      Restart<C> restart,
      IntToLongFunction accounted,
      LongSupplier nanoTime) {
    if (firstAtSeconds == null && everySeconds == null) {
      throw new IllegalArgumentException("a kill needs a time");
    }
    this.firstAtSeconds = firstAtSeconds;
    this.everySeconds = everySeconds;
    this.checkpointDirs = checkpointDirs;
    this.restart = restart;
    this.accounted = accounted;
    this.nanoTime = nanoTime;
    long now = nanoTime.getAsLong();
    for (int j = 0; j < checkpointDirs.size(); j++) {
      lives.put(j, new Life(now, 1, accounted.applyAsLong(j)));
    }
  }

  /**
   * Speaks as {@code voice} and names each consumer by {@code named} (given its process name), as
   * the run around it does.
   */
  public ConsumerKill<C> speakingAs(String voice, Function<String, String> named) {
    this.voice = voice;
    this.named = named;
    return this;
  }

  /**
   * Kills and restarts every live consumer in {@code consumers} whose time has come: {@code
   * --kill-consumer-at}'s and each {@code --crash-every} life's once the job has written and Flink
   * has completed a checkpoint after that (a slow start on a busy machine may have neither by
   * then), so that the restore holds the work it did.
   */
  public void tick(List<C> consumers) throws IOException, InterruptedException {
    long now = nanoTime.getAsLong();
    for (int j = 0; j < consumers.size(); j++) {
      Life life = lives.get(j);
      if (life.finished) {
        continue;
      }
      Path dir = checkpointDirs.get(j);
      if (life.checkpointAtProgress == Life.NO_PROGRESS
          && accounted.applyAsLong(j) > life.startAccounted) {
        // Only a checkpoint newer than this one can hold the progress.
        life.checkpointAtProgress =
            latestCheckpoint(dir).map(ConsumerKill::checkpointNumber).orElse(-1L);
        life.progressNanos = now;
      }
      // --kill-consumer-at counts from the consumers' start; --crash-every from when a life starts
      // writing, so that every life writes for that long, however long its start and restore took.
      boolean fromStart = life.number == 1 && firstAtSeconds != null;
      if (!fromStart && life.checkpointAtProgress == Life.NO_PROGRESS) {
        continue; // --crash-every's time counts from the life's first rows: nothing is due yet
      }
      long due = fromStart ? firstAtSeconds : everySeconds;
      long elapsed = (now - life.startNanos) / 1_000_000_000L;
      if ((now - (fromStart ? life.startNanos : life.progressNanos)) / 1_000_000_000L < due) {
        continue;
      }
      C consumer = consumers.get(j);
      if (!consumer.isAlive()) {
        if (life.number == 1) {
          say(
              "Nothing to kill: %s had already stopped at %d s",
              named.apply(consumer.name()), elapsed);
        }
        life.finished = true;
        continue;
      }
      // Every kill needs a checkpoint completed after the job moved forward in this life: one taken
      // before its source had started holds no reader, and a Kafka job restored from it ended at
      // once without reading a record ("MiniCluster is not yet running or has already been shut
      // down", killed at 15 s before its first row on a loaded machine, 2 of 2 tries).
      Optional<Path> checkpoint =
          life.checkpointAtProgress == Life.NO_PROGRESS
              ? Optional.empty()
              : latestCheckpoint(dir).filter(c -> checkpointNumber(c) > life.checkpointAtProgress);
      if (checkpoint.isEmpty()) {
        if (!life.waitingSaid) {
          life.waitingSaid = true;
          say(
              "Not killed yet: %s has not written and completed a Flink checkpoint after that, by"
                  + " %d s%s; it is killed as soon as it has (a restore of that tests what it is"
                  + " meant to)",
              named.apply(consumer.name()),
              elapsed,
              life.number == 1 ? "" : " of its life " + life.number);
        }
        continue;
      }
      consumer.kill();
      kills++;
      // A kill does not remove completed checkpoints: the newest is still there to restore.
      Path restore = latestCheckpoint(dir).orElse(checkpoint.get());
      say(
          "Killed %s (SIGKILL) at %d s%s%s; starting it again from its checkpoint %s",
          named.apply(consumer.name()),
          elapsed,
          life.number == 1 ? "" : " of its life " + life.number,
          fromStart
              ? ""
              : " (" + (now - life.progressNanos) / 1_000_000_000L + " s after it started writing)",
          restore.getFileName());
      consumers.set(j, restart.start(j + 1, life.number + 1, restore));
      Life next = new Life(nanoTime.getAsLong(), life.number + 1, accounted.applyAsLong(j));
      next.finished = everySeconds == null;
      lives.put(j, next);
    }
  }

  /** Consumers killed and restored so far. */
  public int kills() {
    return kills;
  }

  private static long checkpointNumber(Path chk) {
    return Long.parseLong(chk.getFileName().toString().substring(4));
  }

  /**
   * The newest completed checkpoint under {@code dir} ({@code dir/JOB_ID/chk-N/_metadata}, or
   * {@code dir/chk-N/_metadata}). Flink removes a subsumed checkpoint whenever a newer one
   * completes, so an entry listed a moment ago may be gone when it is opened: such an entry is
   * skipped, never an error (a walk that failed on it, retried five times, still lost the race
   * under load).
   */
  public static Optional<Path> latestCheckpoint(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    Path latest = null;
    for (Path entry : list(dir)) {
      for (Path chk :
          entry.getFileName().toString().matches("chk-\\d+") ? List.of(entry) : list(entry)) {
        if (chk.getFileName().toString().matches("chk-\\d+")
            && Files.exists(chk.resolve("_metadata"))
            && (latest == null || checkpointNumber(chk) > checkpointNumber(latest))) {
          latest = chk;
        }
      }
    }
    return Optional.ofNullable(latest);
  }

  /** The entries of {@code dir}; none when it is not a directory (any more). */
  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.toList();
    } catch (NoSuchFileException | NotDirectoryException gone) {
      return List.of();
    } catch (UncheckedIOException e) {
      if (e.getCause() instanceof NoSuchFileException) {
        return List.of();
      }
      throw e.getCause();
    }
  }

  private void say(String format, Object... args) {
    System.out.println("[" + voice + "] " + String.format(Locale.ROOT, format, args));
  }
}
