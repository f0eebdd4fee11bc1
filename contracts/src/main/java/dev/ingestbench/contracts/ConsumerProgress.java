package dev.ingestbench.contracts;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A line a local consumer prints once a second so the process that started it can follow it: the
 * round starts its live publisher only when the backlog is drained.
 */
public record ConsumerProgress(long rowsWritten, long accountedFor) {
  private static final String PREFIX = "ingestbench-progress";
  private static final Pattern LINE =
      Pattern.compile(PREFIX + " rows_written=(\\d+) accounted_for=(\\d+)");

  public String toLine() {
    return PREFIX + " rows_written=" + rowsWritten + " accounted_for=" + accountedFor;
  }

  public static boolean isProgressLine(String line) {
    return line.startsWith(PREFIX);
  }

  public static Optional<ConsumerProgress> parse(String line) {
    Matcher m = LINE.matcher(line);
    return m.matches()
        ? Optional.of(new ConsumerProgress(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))))
        : Optional.empty();
  }
}
