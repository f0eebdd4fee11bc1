package dev.ingestbench.scenario;

import java.util.Arrays;
import java.util.Optional;

/** What a stage waits for ({@code until:}), when it does not hold for a time. */
public enum Until {
  /** Every running job meets the steady-state rule of docs/methodology.md. */
  STEADY("steady"),
  /** Every running job has written (or dead-lettered) every message of its source. */
  DRAINED("drained");

  private final String word;

  Until(String word) {
    this.word = word;
  }

  /** As a scenario file writes it: {@code steady}. */
  public String word() {
    return word;
  }

  /** The condition a file's {@code until:} names, if it names one. */
  public static Optional<Until> of(String word) {
    return Arrays.stream(values()).filter(u -> u.word.equals(word)).findFirst();
  }

  /** Every condition, as a file writes them: {@code steady or drained}. */
  public static String words() {
    return STEADY.word + " or " + DRAINED.word;
  }

  @Override
  public String toString() {
    return word;
  }
}
