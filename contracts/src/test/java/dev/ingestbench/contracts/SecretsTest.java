package dev.ingestbench.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SecretsTest {
  private static final String JAAS =
      "org.apache.kafka.common.security.plain.PlainLoginModule required"
          + " username=\"u\" password=\"hunter2\";";

  @Test
  void aSaslJaasConfigInsideKafkaSettingsIsRedactedAndTheRestKept() {
    assertEquals(
        "--kafkaConsumerConfig=security.protocol=SASL_SSL;sasl.jaas.config=<redacted>;fetch.min.bytes=1",
        Secrets.redact(
            "--kafkaConsumerConfig=security.protocol=SASL_SSL;sasl.jaas.config="
                + JAAS
                + "fetch.min.bytes=1"));
  }

  @Test
  void aFlagPassedOnThroughAnotherIsRedactedAsItself() {
    assertEquals(
        "--consumer-arg=--kafkaConsumerConfig=sasl.jaas.config=<redacted>",
        Secrets.redact("--consumer-arg=--kafkaConsumerConfig=sasl.jaas.config=" + JAAS));
    assertEquals(
        "--consumer-arg=--apiToken=<redacted>", Secrets.redact("--consumer-arg=--apiToken=abc"));
  }

  @Test
  void secretFlagsAreRedactedWhateverTheirCase() {
    assertEquals(
        List.of(
            "--password=<redacted>",
            "--clientSecret=<redacted>",
            "--gcpCredentialsFile=<redacted>",
            "--project=p",
            "positional",
            "--flag"),
        Secrets.redact(
            List.of(
                "--password=x",
                "--clientSecret=y",
                "--gcpCredentialsFile=/k.json",
                "--project=p",
                "positional",
                "--flag")));
  }

  @Test
  void settingsThatCannotBeReadAreRedactedWholeIfTheyMentionASecret() {
    assertEquals("--x=<redacted>", Secrets.redact("--x=token=;=broken"));
    assertEquals("--x=a=b;=c", Secrets.redact("--x=a=b;=c"));
  }
}
