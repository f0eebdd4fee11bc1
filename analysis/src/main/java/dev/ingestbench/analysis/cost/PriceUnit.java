package dev.ingestbench.analysis.cost;

import java.util.Arrays;
import java.util.stream.Collectors;

/** What a price is per, as a price file writes it. */
public enum PriceUnit {
  VCPU_HOUR("vcpu-hour"),
  GB_HOUR("gb-hour"),
  GB("gb"),
  GIB("gib"),
  TIB("tib"),
  COMPUTE_UNIT_HOUR("compute-unit-hour");

  private final String word;

  PriceUnit(String word) {
    this.word = word;
  }

  public String word() {
    return word;
  }

  /** The unit written {@code word}, or empty. */
  static java.util.Optional<PriceUnit> of(String word) {
    return Arrays.stream(values()).filter(u -> u.word.equals(word)).findFirst();
  }

  /** "vcpu-hour, gb-hour, ...": for a refusal. */
  static String known() {
    return Arrays.stream(values()).map(PriceUnit::word).collect(Collectors.joining(", "));
  }
}
