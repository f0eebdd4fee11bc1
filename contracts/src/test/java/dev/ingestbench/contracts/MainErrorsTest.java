package dev.ingestbench.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class MainErrorsTest {
  @Test
  void badInputIsAUsageErrorAndAnythingElseAFailure() {
    assertEquals(ExitCodes.OK, MainErrors.run("t", () -> ExitCodes.OK));
    assertEquals(
        ExitCodes.USAGE,
        MainErrors.run(
            "t",
            () -> {
              throw new IllegalArgumentException("--flag=x is not known");
            }));
    assertEquals(
        ExitCodes.FAILED,
        MainErrors.run(
            "t",
            () -> {
              throw new IOException("the server stopped");
            }));
  }

  @Test
  void anErrorEndsWithAFailureCodeInsteadOfEscapingTheMainThread() {
    assertEquals(
        ExitCodes.FAILED,
        MainErrors.run(
            "t",
            () -> {
              throw new NoSuchMethodError("a class from another build");
            }));
  }
}
