package dev.ingestbench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code round --kill-consumer-at SECONDS}: once that many seconds have passed since the consumers
 * started, each consumer JVM is killed (SIGKILL: no hook, no partial result) and started again from
 * its last completed Flink checkpoint ({@code --savepointPath}), as a worker lost mid-bundle is
 * restored. The BigQuery emulator, a process of its own, keeps verifying the job across both lives,
 * so what the restore duplicated or lost shows in the round's counts.
 */
final class ConsumerKill {
  /** Starts consumer {@code j} (1-based) again, restoring {@code checkpoint}. */
  interface Restart {
    ChildJvm start(int j, Path checkpoint) throws IOException;
  }

  private final long atNanos;
  private final long seconds;
  private final List<Path> checkpointDirs;
  private final Restart restart;
  private boolean done;

  ConsumerKill(long seconds, List<Path> checkpointDirs, Restart restart) {
    this.seconds = seconds;
    this.atNanos = System.nanoTime() + seconds * 1_000_000_000L;
    this.checkpointDirs = checkpointDirs;
    this.restart = restart;
  }

  /** Kills and restarts every live consumer in {@code consumers} once its time has come. */
  void tick(List<ChildJvm> consumers) throws IOException, InterruptedException {
    if (done || System.nanoTime() < atNanos) {
      return;
    }
    done = true;
    for (int j = 0; j < consumers.size(); j++) {
      ChildJvm consumer = consumers.get(j);
      if (!consumer.isAlive()) {
        say("The %s had already stopped at %d s: nothing to kill", consumer.name(), seconds);
        continue;
      }
      consumer.kill();
      Path dir = checkpointDirs.get(j);
      Path checkpoint = latestCheckpoint(dir).orElseThrow(() -> new IOException(
          "the " + consumer.name() + " was killed at " + seconds + " s before it completed a checkpoint in "
              + dir + ", so it cannot be restored; give a later --kill-consumer-at"));
      say("Killed the %s (SIGKILL) at %d s; starting it again from its checkpoint %s", consumer.name(), seconds,
          checkpoint.getFileName());
      consumers.set(j, restart.start(j + 1, checkpoint));
    }
  }

  /** The newest completed checkpoint under {@code dir}: a {@code chk-N} directory holding {@code _metadata}. */
  static Optional<Path> latestCheckpoint(Path dir) throws IOException {
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
