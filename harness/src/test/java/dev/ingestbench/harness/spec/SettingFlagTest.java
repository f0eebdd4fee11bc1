package dev.ingestbench.harness.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.consumer.ConsumerOptions;
import dev.ingestbench.publisher.PublisherOptions;
import java.lang.reflect.Method;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Each setting's child flag is one the consumer or the publisher reads, and errors say it well. */
class SettingFlagTest {
  private static boolean hasGetter(Class<?> options, String name) {
    String property = Character.toUpperCase(name.charAt(0)) + name.substring(1);
    return Arrays.stream(options.getMethods())
        .map(Method::getName)
        .anyMatch(m -> m.equals("get" + property) || m.equals("is" + property));
  }

  @Test
  void everyChildFlagIsAnOptionOfTheConsumerOrThePublisher() {
    for (SettingFlag setting : SettingFlag.values()) {
      assertTrue(
          hasGetter(ConsumerOptions.class, setting.childName())
              || hasGetter(PublisherOptions.class, setting.childName()),
          setting + ": --" + setting.childName() + " is read by no child");
    }
  }

  @Test
  void aChildsErrorIsToldInTheRoundsWords() {
    assertEquals(
        "--write-method at-least-once cannot use --triggering-frequency",
        SettingFlag.TRIGGERING_FREQUENCY.inRoundWords(
            SettingFlag.WRITE_METHOD.inRoundWords(
                "--writeMethod=at-least-once cannot use --storageWriteApiTriggeringFrequencySec")));
    assertEquals(
        "--connection-pool needs at-least-once",
        SettingFlag.CONNECTION_POOL.inRoundWords(
            "--useStorageApiConnectionPool=true needs at-least-once"));
  }

  @Test
  void aSettingGivenToTheChildDirectlyIsKnownAsSuch() {
    assertTrue(SettingFlag.STREAMS.setBy("--numStorageWriteApiStreams=4"));
    assertTrue(SettingFlag.CONNECTION_POOL.setBy("--useStorageApiConnectionPool"));
    assertFalse(SettingFlag.STREAMS.setBy("--numStorageWriteApiStreamsX=4"));
  }
}
