package dev.ingestbench.bigquery;

import java.util.HashSet;
import java.util.Set;

/**
 * Which message each event index arrived under, so that a second row of one index can be told
 * apart: the same message again is a row the sink wrote twice; another message is an event the
 * source carried twice (a publisher's resend, a producer's retry), which exactly-once does not
 * promise to merge.
 *
 * <p>The first message of an index is kept as 32 bits of its id's hash, in pages allocated as
 * indexes arrive (4 bytes an index: 4 MB for a million); the rare later messages of an index go in
 * a set. Two ids colliding in 32 bits (one in four billion) would count a source duplicate as the
 * sink's: the conservative side.
 */
final class FirstMessageIds {
  private static final int PAGE_BITS = 16;
  private static final int PAGE_SIZE = 1 << PAGE_BITS;

  /** 0 marks an index whose first row had no message id. */
  private int[][] pages = new int[16][];

  private final Set<Long> later = new HashSet<>();

  /** What a row of an index that was already written is. */
  enum Repeat {
    /** The same message again (or no id to tell): the sink wrote it twice. */
    SINK,
    /** Another message with the same event index: the source carried the event twice. */
    SOURCE
  }

  /** Records the message of index {@code index}'s first row ({@link RowScanner#ABSENT}: none). */
  void first(int index, long messageId) {
    int page = index >>> PAGE_BITS;
    if (page >= pages.length) {
      pages = java.util.Arrays.copyOf(pages, Math.max(page + 1, pages.length * 2));
    }
    if (pages[page] == null) {
      pages[page] = new int[PAGE_SIZE];
    }
    pages[page][index & (PAGE_SIZE - 1)] = fold(messageId);
  }

  /** Classifies a later row of index {@code index}, and remembers its message. */
  Repeat repeat(int index, long messageId) {
    int page = index >>> PAGE_BITS;
    int first =
        page < pages.length && pages[page] != null ? pages[page][index & (PAGE_SIZE - 1)] : 0;
    int id = fold(messageId);
    if (first == 0 || id == 0 || id == first) {
      return Repeat.SINK;
    }
    return later.add(((long) index << 32) | (id & 0xffffffffL)) ? Repeat.SOURCE : Repeat.SINK;
  }

  /** 32 bits of the hash, never 0 (which means "no id"). */
  private static int fold(long messageId) {
    if (messageId == RowScanner.ABSENT) {
      return 0;
    }
    int folded = (int) (messageId ^ (messageId >>> 32));
    return folded == 0 ? 1 : folded;
  }
}
