package dev.ingestbench.harness.spec;

import java.util.regex.Pattern;

/**
 * A {@code --heap} value, checked before anything starts: it becomes a child JVM's {@code -Xmx},
 * and a JVM given a size it cannot read does not start (a round then failed in its publisher, after
 * starting the emulators, with "Invalid maximum heap size").
 */
public final class JvmHeap {
  /** What {@code -Xmx} reads: a whole number, in bytes or with k, m, g or t. */
  private static final Pattern SIZE = Pattern.compile("[1-9][0-9]*[kKmMgGtT]?");

  /** The flag of every command that takes one. */
  public static final String FLAG = "--heap";

  private JvmHeap() {}

  /** {@code value} when it is a heap size; otherwise throws naming {@link #FLAG} and the fix. */
  public static String require(String value) {
    if (value == null || !SIZE.matcher(value).matches()) {
      throw new IllegalArgumentException(
          FLAG
              + " "
              + value
              + " is not a JVM heap size: give a whole number with k, m or g, e.g. 768m or 2g");
    }
    return value;
  }
}
