package dev.ingestbench.consumer;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Where the consumer's messages come from ({@code --source}). */
public enum SourceKind {
  /** A Pub/Sub subscription, real or emulated. */
  PUBSUB,
  /** The publisher's generator, run inside the pipeline: the consumer's own cost, no broker. */
  SYNTHETIC;

  public String flag() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static SourceKind fromFlag(String value) {
    for (SourceKind kind : values()) {
      if (kind.flag().equalsIgnoreCase(value)) {
        return kind;
      }
    }
    throw new IllegalArgumentException(
        "--source=" + value + " is not known; use one of "
            + Arrays.stream(values()).map(SourceKind::flag).collect(Collectors.joining(", ")));
  }
}
