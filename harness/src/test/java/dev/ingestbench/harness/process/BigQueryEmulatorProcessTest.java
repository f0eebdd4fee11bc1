package dev.ingestbench.harness.process;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A BigQuery emulator that cannot start is said at once, with its own words. */
@Tag("e2e")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class BigQueryEmulatorProcessTest {
  @Test
  void anEmulatorThatExitsBeforeItIsReadyFailsAtOnceWithItsLastLines(@TempDir Path dir) {
    long start = System.nanoTime();
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                BigQueryEmulatorProcess.start(
                    List.of("--port=not-a-port", "--exit-on-stdin-eof"), dir.resolve("bq.log")));
    double seconds = (System.nanoTime() - start) / 1e9;
    assertTrue(e.getMessage().contains("exited (code 2) before it was ready"), e.getMessage());
    // Its last lines: the end of the usage text picocli prints after naming the bad value.
    assertTrue(e.getMessage().contains("--version"), e.getMessage());
    assertTrue(e.getMessage().contains(dir.resolve("bq.log").toString()), e.getMessage());
    assertTrue(seconds < 30, "said after " + seconds + " s, not after the 60 s wait");
  }
}
