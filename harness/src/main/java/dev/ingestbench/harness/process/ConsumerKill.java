package dev.ingestbench.harness.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code round --kill-consumer-at SECONDS}: once that many seconds have passed since the consumers
 * started (and a consumer has completed a Flink checkpoint), each consumer JVM is killed (SIGKILL: no
 * hook, no partial result) and started again from its last completed checkpoint ({@code
 * --savepointPath}), as a worker lost mid-bundle is restored. The BigQuery emulator, a process of
 * its own, keeps verifying the job across both lives, so what the restore duplicated or lost shows
 * in the round's counts.
 */
public final class ConsumerKill {
  /** Starts consumer {@code j} (1-based) again, restoring {@code checkpoint}. */
  public interface Restart {
    ChildJvm start(int j, Path checkpoint) throws IOException;
  }

  private final long startNanos;
  private final long seconds;
  private final List<Path> checkpointDirs;
  private final Restart restart;
  /** Consumers (0-based) already killed, or stopped before their time. */
  private final Set<Integer> finished = new HashSet<>();
  private final Set<Integer> waitingForCheckpoint = new HashSet<>();

  public ConsumerKill(long seconds, List<Path> checkpointDirs, Restart restart) {
    this.seconds = seconds;
    this.startNanos = System.nanoTime();
    this.checkpointDirs = checkpointDirs;
    this.restart = restart;
  }

  /**
   * Kills and restarts every live consumer in {@code consumers} once its time has come. A consumer
   * without a completed checkpoint yet (a slow start on a busy machine) is killed as soon as it has
   * one: a restore needs it, and the kill is meant to test the restore.
   */
  public void tick(List<ChildJvm> consumers) throws IOException, InterruptedException {
    long elapsed = (System.nanoTime() - startNanos) / 1_000_000_000L;
    if (elapsed < seconds) {
      return;
    }
    for (int j = 0; j < consumers.size(); j++) {
      if (finished.contains(j)) {
        continue;
      }
      ChildJvm consumer = consumers.get(j);
      if (!consumer.isAlive()) {
        say("The %s had already stopped at %d s: nothing to kill", consumer.name(), elapsed);
        finished.add(j);
        continue;
      }
      Path dir = checkpointDirs.get(j);
      if (latestCheckpoint(dir).isEmpty()) {
        if (waitingForCheckpoint.add(j)) {
          say("The %s has not completed a Flink checkpoint by %d s: it is killed as soon as it has one (a restore"
              + " needs it)", consumer.name(), elapsed);
        }
        continue;
      }
      consumer.kill();
      finished.add(j);
      Path checkpoint = latestCheckpoint(dir).orElseThrow(); // a kill does not remove completed checkpoints
      say("Killed the %s (SIGKILL) at %d s; starting it again from its checkpoint %s", consumer.name(), elapsed,
          checkpoint.getFileName());
      consumers.set(j, restart.start(j + 1, checkpoint));
    }
  }

  /**
   * The newest completed checkpoint under {@code dir}: a {@code chk-N} directory holding {@code
   * _metadata}. Flink removes a subsumed checkpoint whenever a newer one completes, so a directory
   * listed a moment ago may be gone when the walk opens it: the walk then starts again (a kill, which
   * needs the newest checkpoint, must not fail the round for it).
   */
  public static Optional<Path> latestCheckpoint(Path dir) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        return walkForLatest(dir);
      } catch (UncheckedIOException | NoSuchFileException e) {
        if (attempt == 5) {
          throw e instanceof UncheckedIOException u ? u.getCause() : (IOException) e;
        }
      }
    }
  }

  private static Optional<Path> walkForLatest(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.walk(dir, 3)) {
      return files
          .filter(p -> p.getFileName().toString().equals("_metadata"))
          .map(Path::getParent)
          .filter(p -> p.getFileName().toString().matches("chk-\\d+"))
          .max(Comparator.comparingLong(p -> Long.parseLong(p.getFileName().toString().substring(4))));
    }
  }

  private static void say(String format, Object... args) {
    System.out.println("[round] " + String.format(Locale.ROOT, format, args));
  }
}
