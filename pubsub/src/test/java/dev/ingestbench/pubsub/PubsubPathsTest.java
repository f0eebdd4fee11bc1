package dev.ingestbench.pubsub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PubsubPathsTest {
  @Test
  void shortNamesAreCompletedWithTheProject() {
    assertEquals("projects/p-1/topics/rides", PubsubPaths.topic("p-1", "--topic", "rides"));
    assertEquals(
        "projects/p-1/subscriptions/rides-a",
        PubsubPaths.subscription("p-1", "--subscription", "rides-a"));
  }

  @Test
  void fullPathsAreKeptAndChecked() {
    assertEquals(
        "projects/x/topics/rides", PubsubPaths.topic(null, "--topic", "projects/x/topics/rides"));
    String message =
        assertThrows(
                IllegalArgumentException.class,
                () -> PubsubPaths.topic(null, "--topic", "projects/x/subscriptions/rides"))
            .getMessage();
    assertTrue(message.contains("projects/PROJECT/topics/NAME"), message);
  }

  @Test
  void badOrIncompleteNamesNameTheFlag() {
    assertTrue(
        assertThrows(
                IllegalArgumentException.class, () -> PubsubPaths.topic("p", "--topic", "1bad"))
            .getMessage()
            .startsWith("--topic=1bad"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class, () -> PubsubPaths.topic("", "--topic", "rides"))
            .getMessage()
            .contains("--project"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> PubsubPaths.topic("p", "--topic", " "))
            .getMessage()
            .contains("required"));
  }
}
