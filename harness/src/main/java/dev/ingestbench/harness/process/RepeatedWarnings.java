package dev.ingestbench.harness.process;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Keeps a child's repeated warnings from flooding the console: of the WARN and ERROR lines of one
 * shape (the same text once numbers and ids are set aside), the first {@link #SHOWN_PER_WINDOW} in
 * each {@link #WINDOW_NANOS} window are shown; the rest only go to the log, and the next window
 * says how many were held back. A quota that refuses thousands of appends, or 10,000 tables met by
 * a tables quota, is then a few lines a minute on the console and every line in the log. Progress
 * and other lines always pass. Not thread-safe: one per output pump.
 */
final class RepeatedWarnings {
  static final int SHOWN_PER_WINDOW = 3;
  static final long WINDOW_NANOS = 60_000_000_000L;

  /** Numbers, hex ids and UUIDs: what changes between two lines of one shape. */
  private static final Pattern VARYING = Pattern.compile("[0-9a-fA-F-]*[0-9][0-9a-fA-F.,:-]*");

  private static final int SHAPE_CHARS = 160;

  /** Shapes remembered at most; the oldest is forgotten (its held-back count is said first). */
  private static final int MAX_SHAPES = 1_000;

  /**
   * The first line of a logged message: a time, then a level (the consumers' {@code HH:mm:ss LEVEL
   * logger - text}); other lines continue the message above them.
   */
  private static final Pattern LOG_LINE =
      Pattern.compile("\\d{2}:\\d{2}:\\d{2}([.,]\\d+)? +(TRACE|DEBUG|INFO|WARN|ERROR) ");

  private final Map<String, Shape> shapes = new LinkedHashMap<>();

  /** The last message's first line was held back: its continuation lines are too. */
  private boolean holdingBack;

  private final String logName;

  /**
   * @param logName the log file that has every line, named in the notes
   */
  RepeatedWarnings(String logName) {
    this.logName = logName;
  }

  private static final class Shape {
    long windowStart;
    int shown;
    long heldBack;
  }

  /**
   * The lines to print for {@code line} at {@code nowNanos}: none (held back), the line, or a note
   * of what an earlier window held back followed by the line.
   */
  List<String> admit(String line, long nowNanos) {
    if (!LOG_LINE.matcher(line).lookingAt()) {
      // The rest of a message over several lines (an exception's text, a retry's details):
      // it goes where its first line went.
      return holdingBack ? List.of() : List.of(line);
    }
    holdingBack = false;
    if (!line.contains(" WARN ") && !line.contains(" ERROR ")) {
      return List.of(line);
    }
    String key = shape(line);
    Shape s = shapes.get(key);
    List<String> out = new ArrayList<>(2);
    if (s == null) {
      if (shapes.size() == MAX_SHAPES) {
        String oldest = shapes.keySet().iterator().next();
        note(shapes.remove(oldest), oldest, out);
      }
      s = new Shape();
      s.windowStart = nowNanos;
      shapes.put(key, s);
    } else if (nowNanos - s.windowStart >= WINDOW_NANOS) {
      note(s, key, out);
      s.windowStart = nowNanos;
      s.shown = 0;
    }
    if (s.shown < SHOWN_PER_WINDOW) {
      s.shown++;
      out.add(line);
    } else {
      s.heldBack++;
      holdingBack = true;
    }
    return out;
  }

  /** What is still held back, to print when the child's output ends. */
  List<String> flush() {
    List<String> out = new ArrayList<>();
    shapes.forEach((key, s) -> note(s, key, out));
    shapes.clear();
    return out;
  }

  private void note(Shape s, String key, List<String> out) {
    if (s.heldBack > 0) {
      out.add(
          String.format(
              java.util.Locale.ROOT,
              "(%,d more like \"%s\" held back; every line is in %s)",
              s.heldBack,
              key,
              logName));
      s.heldBack = 0;
    }
  }

  /** The line without its numbers and ids, cut short: lines of one shape share it. */
  static String shape(String line) {
    String s = VARYING.matcher(line.strip()).replaceAll("#");
    return s.length() > SHAPE_CHARS ? s.substring(0, SHAPE_CHARS) + "..." : s;
  }
}
