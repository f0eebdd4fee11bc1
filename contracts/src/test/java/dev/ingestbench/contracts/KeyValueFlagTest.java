package dev.ingestbench.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyValueFlagTest {
  @Test
  void saslSettingsWithSpacesAndEqualsSignsSurvive() {
    Map<String, String> pairs =
        KeyValueFlag.parse(
            "--kafkaConsumerConfig",
            "security.protocol=SASL_SSL; sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule"
                + " required username=\"u\" password=\"p=q\";fetch.min.bytes=1");
    assertEquals("SASL_SSL", pairs.get("security.protocol"));
    assertEquals(
        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"p=q\";",
        pairs.get("sasl.jaas.config"),
        "the JAAS line gets its ending ';' back");
    assertEquals("1", pairs.get("fetch.min.bytes"));
    assertTrue(KeyValueFlag.parse("--x", " ").isEmpty());
  }

  @Test
  void aPairWithoutAKeyNamesTheFlagAndThePair() {
    String message =
        assertThrows(
                IllegalArgumentException.class,
                () -> KeyValueFlag.parse("--kafkaProducerConfig", "acks=all;=5"))
            .getMessage();
    assertEquals(
        "--kafkaProducerConfig: '=5' is not KEY=VALUE (pairs are separated by ';')", message);
  }
}
