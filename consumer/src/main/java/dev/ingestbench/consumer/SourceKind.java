package dev.ingestbench.consumer;

import dev.ingestbench.contracts.FlagValues;
import java.util.Locale;

/** Where the consumer's messages come from ({@code --source}). */
public enum SourceKind {
  /** A Pub/Sub subscription, real or emulated. */
  PUBSUB,
  /** A Kafka topic, read with Beam's KafkaIO. */
  KAFKA,
  /** The publisher's generator, run inside the pipeline: the consumer's own cost, no broker. */
  SYNTHETIC;

  public String flag() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static SourceKind fromFlag(String value) {
    return FlagValues.parse("--source", value, values(), SourceKind::flag);
  }
}
