package dev.ingestbench.consumer.source;

import dev.ingestbench.contracts.KeyValueFlag;
import java.io.Serializable;
import java.util.Map;
import java.util.Set;

/**
 * Where {@code --source=kafka} reads: validated once at launch.
 *
 * @param consumerConfig extra Kafka consumer settings ({@code --kafkaConsumerConfig}), e.g. SASL
 * @param gcpAuth SASL/OAUTHBEARER with Google credentials, for Managed Service for Apache Kafka
 */
public record KafkaSource(
    String bootstrapServers,
    String topic,
    String consumerGroup,
    Map<String, String> consumerConfig,
    boolean gcpAuth)
    implements Serializable {

  /** Settings the consumer makes itself; setting them again would break what it relies on. */
  private static final Set<String> OWN_SETTINGS =
      Set.of(
          "bootstrap.servers",
          "group.id",
          "key.deserializer",
          "value.deserializer",
          "enable.auto.commit");

  public static KafkaSource from(
      String bootstrapServers, String topic, String group, String extraConfig, boolean gcpAuth) {
    if (bootstrapServers == null || bootstrapServers.isBlank()) {
      throw new IllegalArgumentException(
          "--source=kafka needs --bootstrapServers=HOST:PORT[,HOST:PORT...] (`ingestbench kafka` prints a"
              + " local broker's)");
    }
    for (String server : bootstrapServers.split(",")) {
      String s = server.trim();
      int colon = s.lastIndexOf(':');
      if (colon <= 0 || !s.substring(colon + 1).matches("\\d{1,5}")) {
        throw new IllegalArgumentException(
            "--bootstrapServers=" + bootstrapServers + ": '" + s + "' is not HOST:PORT");
      }
    }
    if (topic == null || topic.isBlank()) {
      throw new IllegalArgumentException("--source=kafka needs --kafkaTopic=TOPIC");
    }
    if (!topic.trim().matches("[A-Za-z0-9._-]{1,249}")) {
      throw new IllegalArgumentException(
          "--kafkaTopic="
              + topic
              + " is not a Kafka topic name (letters, digits, '.', '_', '-'; up to 249)");
    }
    if (group == null || group.isBlank()) {
      throw new IllegalArgumentException(
          "--consumerGroup must not be empty: KafkaIO commits its offsets to it");
    }
    Map<String, String> config = parseConfig(extraConfig);
    if (gcpAuth
        && (config.containsKey("security.protocol") || config.containsKey("sasl.mechanism"))) {
      throw new IllegalArgumentException(
          "--kafkaGcpAuth sets security.protocol and sasl.mechanism itself; drop them from --kafkaConsumerConfig");
    }
    return new KafkaSource(bootstrapServers.trim(), topic.trim(), group.trim(), config, gcpAuth);
  }

  /** {@code --kafkaConsumerConfig}, without the settings the consumer makes itself. */
  static Map<String, String> parseConfig(String text) {
    Map<String, String> config = KeyValueFlag.parse("--kafkaConsumerConfig", text);
    for (String key : config.keySet()) {
      if (OWN_SETTINGS.contains(key)) {
        throw new IllegalArgumentException(
            "--kafkaConsumerConfig: "
                + key
                + " is set by the consumer itself"
                + (key.equals("bootstrap.servers")
                    ? "; use --bootstrapServers"
                    : key.equals("group.id") ? "; use --consumerGroup" : "; drop it"));
      }
    }
    return config;
  }
}
