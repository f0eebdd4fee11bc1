package dev.ingestbench.harness.round;

import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.harness.spec.OutDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a round writes into its {@code --out}, and clearing an earlier round's files (and nothing
 * else).
 */
final class RoundFiles {
  /**
   * What a round writes at the top of --out: an --out holding any of them holds an earlier round.
   */
  private static final List<String> FILES =
      List.of(
          RunFiles.ROUND,
          RunFiles.PUBLISHER_BACKLOG,
          RunFiles.PUBLISHER_LIVE,
          RunFiles.FEED,
          RunFiles.CONSUMER_RESULT,
          RunFiles.CONNECTIONS,
          RunFiles.TABLES,
          RunFiles.BIGQUERY_EMULATOR,
          RunFiles.TIMELINE,
          RunFiles.TIMELINE_PER_SECOND,
          RunFiles.SUMMARY,
          RunFiles.REPORT,
          RunFiles.CONSUMER_SAMPLES,
          RunFiles.PROCESSES_CPU,
          RunFiles.MACHINE_CPU,
          RunFiles.RESULTS);

  /**
   * The directories a round writes besides its job directories: the stage's marker, the kill's
   * checkpoints, and a Kafka round's broker data, which a crashed round leaves behind (the broker
   * refuses a directory that is not empty).
   */
  private static final List<String> DIRECTORIES =
      List.of(RunFiles.STATUS_DIRECTORY, "checkpoints", RunFiles.KAFKA_DATA);

  /**
   * A consumer's logs: {@code consumer.log}, {@code consumer-2.log}, an earlier life's {@code
   * consumer.1.log} (and the {@code consumer-restarted[-N].log} of earlier versions).
   */
  private static final Pattern CONSUMER_LOG =
      Pattern.compile("consumer(-\\d+)?(\\.\\d+|-restarted(-\\d+)?)?\\.log");

  private RoundFiles() {}

  /**
   * Removes the consumer logs an earlier round left in {@code out} (one that ended before it wrote
   * any result, or whose files {@code --force} just removed): a killed life's log is numbered after
   * the logs already there, so a stale {@code consumer.log} would become this round's {@code
   * consumer.1.log}.
   */
  static void clearEarlierLogs(Path out) throws IOException {
    try (Stream<Path> entries = Files.list(out)) {
      for (Path p : entries.toList()) {
        if (Files.isRegularFile(p) && CONSUMER_LOG.matcher(p.getFileName().toString()).matches()) {
          Files.delete(p);
        }
      }
    }
  }

  /**
   * A reused --out must not lend this round an earlier round's results: refused unless {@code
   * force}, which deletes the files a round writes (and its job directories), nothing else.
   */
  static void clearEarlierRound(Path out, boolean force) throws IOException {
    List<Path> earlier = new ArrayList<>();
    for (String name : FILES) {
      if (Files.exists(out.resolve(name))) {
        earlier.add(out.resolve(name));
      }
    }
    try (Stream<Path> entries = Files.list(out)) {
      entries
          .filter(
              p ->
                  Files.isDirectory(p)
                      && p.getFileName().toString().matches("job-\\d+")
                      && Files.exists(p.resolve(RunFiles.CONSUMER_RESULT)))
          .forEach(earlier::add);
    }
    for (String name : DIRECTORIES) {
      if (Files.isDirectory(out.resolve(name))) {
        earlier.add(
            out.resolve(
                name)); // e.g. a --kill-consumer-at round stopped before it removed its checkpoints
      }
    }
    if (earlier.isEmpty()) {
      return;
    }
    if (!force) {
      throw new IllegalArgumentException(
          "--out "
              + out
              + " holds an earlier round's files ("
              + earlier.get(0).getFileName()
              + (earlier.size() > 1 ? " and " + (earlier.size() - 1) + " more" : "")
              + "); give another --out, or add"
              + " --force to replace them");
    }
    for (Path p : earlier) {
      OutDirectory.deleteTree(p);
    }
  }
}
