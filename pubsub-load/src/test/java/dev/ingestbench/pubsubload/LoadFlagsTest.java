package dev.ingestbench.pubsubload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Sweeps, grids and flags parse as documented; bad values end with one line naming the flag and the
 * fix.
 */
class LoadFlagsTest {

  private static String error(String... args) {
    StringWriter err = new StringWriter();
    int exit = PubsubLoadCommand.commandLine().setErr(new PrintWriter(err)).execute(args);
    assertEquals(2, exit, err.toString());
    assertEquals(1, err.toString().strip().lines().count(), "one line: " + err);
    return err.toString();
  }

  @Test
  void sweepsParse() {
    Sweep s = Sweep.parse("threads=1,2,4,8");
    assertEquals("threads", s.key());
    assertEquals(List.of(1, 2, 4, 8), s.values());
    assertEquals(List.of(100, 1000, 10000), Sweep.parse("message-size=100,1000,10000").values());
    assertEquals(List.of(10, 100), Sweep.parse("pull-batch=10, 100").values());
  }

  @Test
  void badSweepsAreNamedWithTheFix() {
    assertTrue(
        error("--sweep", "cores=1,2")
            .contains("must be one of [message-size, parallel-pull, pull-batch, threads]"));
    assertTrue(error("--sweep", "threads=1,x").contains("'x' is not a whole number above 0"));
    assertTrue(error("--sweep", "threads=").contains("give the values after '='"));
    assertTrue(error("--sweep", "threads=2,2").contains("2 is given twice"));
  }

  @Test
  void gridsParseWithTheUnitWrittenOnce() {
    BatchingGrid g =
        BatchingGrid.parse(
            "delay=1,10,100ms; count=5,50,100,1000; bytes=2048,4096,1000000", 25, 1000, 1);
    assertEquals(
        List.of(Duration.ofMillis(1), Duration.ofMillis(10), Duration.ofMillis(100)), g.delays());
    assertEquals(List.of(5L, 50L, 100L, 1000L), g.counts());
    assertEquals(List.of(2048L, 4096L, 1_000_000L), g.bytes());
    CommandLine cl = PubsubLoadCommand.commandLine();
    cl.parseArgs();
    LoadSettings base = ((PubsubLoadCommand) cl.getCommand()).settings();
    assertEquals(1 + 3 * 4 * 3, g.combinations(base).size(), "every combination and the baseline");
    assertEquals((1 + 36) * 25, g.order(base).size());
    assertEquals(
        g.order(base), g.order(base), "the shuffled order is the same on a rerun (resume)");
    assertEquals(
        List.of(Duration.ofMillis(1), Duration.ofSeconds(2)),
        BatchingGrid.parse("delay=1ms,2s", 1, 1, 1).delays());
  }

  @Test
  void badGridsAreNamedWithTheFix() {
    assertTrue(error("--grid", "linger=5").contains("'linger' is not a batch setting"));
    assertTrue(error("--grid", "count=0").contains("--grid count 0 is out of range: use 1..1000"));
    assertTrue(error("--grid", "bytes=20000000").contains("10 MB"));
    assertTrue(error("--grid", "delay=fast").contains("is not a duration"));
    assertTrue(error("--grid", "count=5", "--trials", "0").contains("--trials 0 is out of range"));
  }

  @Test
  void badFlagsAreNamedWithTheFix() {
    assertTrue(
        error("--side", "sideways")
            .contains("--side sideways is not one of [publish, subscribe, both]"));
    assertTrue(error("--batch-messages", "5000").contains("use 1..1000"));
    assertTrue(error("--duration", "1s").contains("at least 2s"));
    assertTrue(error("--burn-in", "soon").contains("is not a duration"));
    assertTrue(
        error("--project", "p", "--pubsub-emulator-host", "localhost:1").contains("give one"));
  }
}
