package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.emulator.PubsubEmulator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code consume} and {@code publish} run with Beam flags exactly as the README shows them. */
@Tag("e2e")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PipelineCommandsTest {
  private record Outcome(int exit, String err) {}

  private static Outcome run(String... args) {
    StringWriter err = new StringWriter();
    CommandLine cli = IngestbenchCommand.commandLine();
    cli.setErr(new PrintWriter(err));
    return new Outcome(cli.execute(args), err.toString());
  }

  @Test
  void consumeTakesBeamFlagsAndRunsTheSyntheticSourceLocally(@TempDir Path out) throws Exception {
    Outcome o =
        run(
            "consume",
            "--source=synthetic",
            "--syntheticMessages=3000",
            "--project=ingestbench-local",
            "--outputTable=bench.rides",
            "--localOutputDir=" + out);
    assertEquals(ExitCodes.OK, o.exit(), o.err());
    ConsumerResult result =
        RunJson.read(out.resolve(RunFiles.CONSUMER_RESULT), ConsumerResult.class);
    assertEquals(3_000, result.distinctMessageIds());
    assertEquals(3_000, result.rowsWritten());
    assertEquals("exactly-once", result.writeMethod());
    assertEquals(1, result.triggeringFrequencySec());
    assertTrue(Files.exists(out.resolve(RunFiles.TIMELINE)));
  }

  @Test
  void publishTakesBeamFlagsAndPublishesToTheEmulator(@TempDir Path out) throws Exception {
    try (PubsubEmulator emulator = PubsubEmulator.start()) {
      Path result = out.resolve("published.json");
      Outcome o =
          run(
              "publish",
              "--pubsubEmulatorHost=" + emulator.hostAndPort(),
              "--project=ingestbench-local",
              "--topic=rides",
              "--createSubscriptions=rides-a",
              "--numMessages=500",
              "--resultFile=" + result);
      assertEquals(ExitCodes.OK, o.exit(), o.err());
      PublisherResult published = RunJson.read(result, PublisherResult.class);
      assertEquals(500, published.published());
      assertEquals(0, published.publishFailures());
    }
  }

  @Test
  void badPipelineFlagsEndWithTheUsageCodeAndOneLineNamingThem() {
    Outcome consume =
        run(
            "consume",
            "--source=synthetic",
            "--project=p-local",
            "--outputTable=d.t",
            "--writeMethod=sometimes");
    assertEquals(ExitCodes.USAGE, consume.exit(), consume.err());
    assertTrue(
        consume.err().startsWith("consume: --writeMethod=sometimes is not known"), consume.err());
    assertFalse(consume.err().contains("\tat "), "no stack trace: " + consume.err());

    Outcome beamFlags =
        run(
            "consume",
            "--source=synthetic",
            "--project=p-local",
            "--outputTable=d.t",
            "--writeMethod=exactly-once",
            "--useStorageWriteApi=true",
            "--useStorageWriteApiAtLeastOnce=true");
    assertEquals(ExitCodes.USAGE, beamFlags.exit(), beamFlags.err());
    assertTrue(beamFlags.err().contains("disagrees"), beamFlags.err());

    Outcome publish = run("publish", "--numMessages=10");
    assertEquals(ExitCodes.USAGE, publish.exit(), publish.err());
    assertTrue(publish.err().contains("--topic"), publish.err());
  }

  @Test
  void aRoundRefusesFlagsItsConsumerWouldRefuseBeforeStartingAnything(@TempDir Path dir) {
    Path out = dir.resolve("round");
    Outcome o = run("round", "--connection-pool", "--out", out.toString());
    assertEquals(ExitCodes.USAGE, o.exit(), o.err());
    assertTrue(o.err().contains("--connection-pool needs --write-method at-least-once"), o.err());
    assertFalse(Files.exists(out), "nothing was started or written");

    Outcome typo = run("round", "--write-method", "sometimes", "--out", out.toString());
    assertEquals(ExitCodes.USAGE, typo.exit(), typo.err());
    // The option the user typed, not the consumer's spelling of it.
    assertTrue(
        typo.err().contains("Invalid value for option '--write-method': 'sometimes' is not known"),
        typo.err());

    Outcome beam =
        run(
            "round",
            "--write-method",
            "at-least-once",
            "--consumer-arg=--useStorageWriteApi=true",
            "--out",
            out.toString());
    assertEquals(ExitCodes.USAGE, beam.exit(), beam.err());
    assertTrue(beam.err().contains("disagrees"), beam.err());
  }
}
