package dev.ingestbench.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChildJavaOptionsTest {
  @Test
  void theBuildsOptionsForTheTestsChildJvmsAreReadOneByOne() {
    // The root POM sets the variable for every test JVM to the client compiler alone.
    assertEquals(List.of("-XX:TieredStopAtLevel=1"), ChildJavaOptions.fromEnvironment());
  }
}
