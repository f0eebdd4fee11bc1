package dev.ingestbench.pubsubload;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Which sequence numbers were seen, lock-free: one bit each in blocks of 2^20 allocated as the
 * numbers arrive, so a second sighting is a duplicate and an acknowledged number never seen is
 * missing. Subscriber threads mark concurrently at hundreds of thousands per second.
 */
final class SequenceTracker {
  private static final int BLOCK_BITS = 20;
  private static final int BLOCK_WORDS = (1 << BLOCK_BITS) / 64;

  private final ConcurrentHashMap<Long, AtomicLongArray> blocks = new ConcurrentHashMap<>();
  private final LongAdder distinct = new LongAdder();
  private final LongAdder duplicates = new LongAdder();

  /** Marks {@code seq}; returns false when it was marked already (a duplicate). */
  boolean mark(long seq) {
    AtomicLongArray block =
        blocks.computeIfAbsent(seq >>> BLOCK_BITS, k -> new AtomicLongArray(BLOCK_WORDS));
    int bit = (int) (seq & ((1 << BLOCK_BITS) - 1));
    int word = bit >>> 6;
    long mask = 1L << (bit & 63);
    while (true) {
      long old = block.get(word);
      if ((old & mask) != 0) {
        duplicates.increment();
        return false;
      }
      if (block.compareAndSet(word, old, old | mask)) {
        distinct.increment();
        return true;
      }
    }
  }

  boolean contains(long seq) {
    AtomicLongArray block = blocks.get(seq >>> BLOCK_BITS);
    int bit = (int) (seq & ((1 << BLOCK_BITS) - 1));
    return block != null && (block.get(bit >>> 6) & (1L << (bit & 63))) != 0;
  }

  long distinct() {
    return distinct.sum();
  }

  long duplicates() {
    return duplicates.sum();
  }

  /** How many numbers marked here are not marked in {@code other}. */
  long missingFrom(SequenceTracker other) {
    long missing = 0;
    for (var e : blocks.entrySet()) {
      AtomicLongArray mine = e.getValue();
      AtomicLongArray theirs = other.blocks.get(e.getKey());
      for (int w = 0; w < BLOCK_WORDS; w++) {
        long bits = mine.get(w) & ~(theirs == null ? 0 : theirs.get(w));
        missing += Long.bitCount(bits);
      }
    }
    return missing;
  }
}
