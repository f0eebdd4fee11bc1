package dev.ingestbench.harness.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.StopMode;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Asking a consumer to stop in a mode, also one that has already ended by itself. */
class ChildJvmStopTest {
  /** A child that exits at once, as a consumer that read everything does. */
  public static final class ExitsAtOnce {
    public static void main(String[] args) {
      System.exit(0);
    }
  }

  @Test
  void stoppingAChildThatHasEndedIsNoFailure(@TempDir Path dir) throws Exception {
    try (ChildJvm jvm =
        ChildJvm.startStoppable(
            ProcessLauncher.SYSTEM,
            "ended",
            "64m",
            ExitsAtOnce.class.getName(),
            List.of(),
            dir.resolve("ended.log"),
            progress -> {})) {
      assertEquals(OptionalInt.of(0), jvm.waitFor(30));
      jvm.stop(StopMode.SAVEPOINT); // a broken pipe: its exit code already says how it ended
      assertTrue(jvm.exitCode().isPresent());
    }
  }
}
