package dev.ingestbench.publisher;

import dev.ingestbench.contracts.KeyValueFlag;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Where and how {@code --sink=kafka} publishes, validated once at launch.
 *
 * @param partitions create the topic with this many partitions if it is missing; 0 requires it
 * @param producerConfig every producer setting the flags make (batching, compression, acks, extras)
 */
public record KafkaTarget(
    String bootstrapServers, String topic, int partitions, Map<String, String> producerConfig)
    implements Serializable {

  private static final Set<String> COMPRESSION = Set.of("none", "gzip", "snappy", "lz4", "zstd");
  private static final Set<String> ACKS = Set.of("0", "1", "all", "-1");

  /** Settings the flags own: given in --kafkaProducerConfig they would silently fight the flags. */
  private static final Map<String, String> FLAG_OF =
      Map.of(
          "bootstrap.servers", "--bootstrapServers",
          "linger.ms", "--lingerMs",
          "batch.size", "--batchSize",
          "compression.type", "--compressionType",
          "acks", "--acks",
          "key.serializer", "(bytes, set by the publisher)",
          "value.serializer", "(bytes, set by the publisher)");

  /**
   * Managed Service for Apache Kafka's client settings: the ones KafkaIO's
   * withGCPApplicationDefaultCredentials sets.
   */
  static final Map<String, String> GCP_AUTH =
      Map.of(
          "security.protocol", "SASL_SSL",
          "sasl.mechanism", "OAUTHBEARER",
          "sasl.login.callback.handler.class",
              "com.google.cloud.hosted.kafka.auth.GcpLoginCallbackHandler",
          "sasl.jaas.config",
              "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;");

  static KafkaTarget from(PublisherOptions options) {
    String servers = options.getBootstrapServers();
    if (servers == null || servers.isBlank()) {
      throw new IllegalArgumentException(
          "--sink=kafka needs --bootstrapServers=HOST:PORT[,HOST:PORT...]");
    }
    for (String server : servers.split(",")) {
      if (!server.trim().matches(".+:\\d{1,5}")) {
        throw new IllegalArgumentException(
            "--bootstrapServers=" + servers + ": '" + server.trim() + "' is not HOST:PORT");
      }
    }
    String topic = options.getKafkaTopic();
    if (topic == null || !topic.trim().matches("[A-Za-z0-9._-]{1,249}")) {
      throw new IllegalArgumentException(
          "--sink=kafka needs --kafkaTopic=TOPIC (letters, digits, '.', '_', '-'; up to 249), not "
              + topic);
    }
    require(
        options.getKafkaPartitions() >= 0,
        "--kafkaPartitions",
        options.getKafkaPartitions(),
        "use 0 (the topic exists) or more");
    require(options.getLingerMs() >= 0, "--lingerMs", options.getLingerMs(), "use 0 ms or more");
    require(
        options.getBatchSize() >= 0,
        "--batchSize",
        options.getBatchSize(),
        "use 0 bytes (no batching) or more");
    require(
        COMPRESSION.contains(options.getCompressionType()),
        "--compressionType",
        options.getCompressionType(),
        "use one of none, gzip, snappy, lz4, zstd");
    require(ACKS.contains(options.getAcks()), "--acks", options.getAcks(), "use 0, 1 or all");
    Map<String, String> config = new LinkedHashMap<>();
    config.put(ProducerConfig.LINGER_MS_CONFIG, Integer.toString(options.getLingerMs()));
    config.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(options.getBatchSize()));
    config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, options.getCompressionType());
    config.put(ProducerConfig.ACKS_CONFIG, options.getAcks());
    // Retries must not duplicate: idempotence needs acks=all; with weaker acks the user chose loss
    // risk.
    config.put(
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
        Boolean.toString(options.getAcks().equals("all") || options.getAcks().equals("-1")));
    for (Map.Entry<String, String> extra :
        KeyValueFlag.parse("--kafkaProducerConfig", options.getKafkaProducerConfig()).entrySet()) {
      String flag = FLAG_OF.get(extra.getKey());
      if (flag != null) {
        throw new IllegalArgumentException(
            "--kafkaProducerConfig: "
                + extra.getKey()
                + " is set with "
                + flag
                + "; drop it from --kafkaProducerConfig");
      }
      config.put(extra.getKey(), extra.getValue());
    }
    if (options.getKafkaGcpAuth()) {
      if (config.containsKey("security.protocol") || config.containsKey("sasl.mechanism")) {
        throw new IllegalArgumentException(
            "--kafkaGcpAuth sets security.protocol and sasl.mechanism itself; drop them from --kafkaProducerConfig");
      }
      config.putAll(GCP_AUTH);
    }
    return new KafkaTarget(servers.trim(), topic.trim(), options.getKafkaPartitions(), config);
  }

  private static void require(boolean ok, String flag, Object value, String fix) {
    if (!ok) {
      throw new IllegalArgumentException(flag + "=" + value + " is invalid: " + fix);
    }
  }
}
