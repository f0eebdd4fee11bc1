package dev.ingestbench.contracts;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The value of a {@code KEY=VALUE;KEY=VALUE} flag ({@code --kafkaConsumerConfig}, {@code
 * --kafkaProducerConfig}). Pairs are separated by ';' because Kafka's SASL JAAS values hold spaces
 * and '='; a {@code sasl.jaas.config} value gets back the ';' that ends a JAAS line.
 */
public final class KeyValueFlag {
  private KeyValueFlag() {}

  /**
   * @throws IllegalArgumentException naming {@code flag} and the pair that is not KEY=VALUE
   */
  public static Map<String, String> parse(String flag, String text) {
    Map<String, String> pairs = new LinkedHashMap<>();
    if (text == null || text.isBlank()) {
      return pairs;
    }
    for (String pair : text.split(";")) {
      if (pair.isBlank()) {
        continue;
      }
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            flag + ": '" + pair.trim() + "' is not KEY=VALUE (pairs are separated by ';')");
      }
      String key = pair.substring(0, eq).trim();
      String value = pair.substring(eq + 1).trim();
      if (key.equals("sasl.jaas.config") && !value.endsWith(";")) {
        value = value + ";";
      }
      pairs.put(key, value);
    }
    return pairs;
  }
}
