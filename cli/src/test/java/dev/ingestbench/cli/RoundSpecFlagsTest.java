package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ingestbench.consumer.WriteMethod;
import dev.ingestbench.harness.round.RoundSpec;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code round}'s flags become a typed {@link RoundSpec}, and a spec written back as flags (what
 * --dry-run prints for a scenario's iterations) reads back into the same spec.
 */
class RoundSpecFlagsTest {
  private static RoundSpec parse(List<String> args) {
    RoundCommand round = new RoundCommand();
    new CommandLine(round).parseArgs(args.toArray(new String[0]));
    return round.spec();
  }

  @Test
  void aSpecReadsBackFromItsOwnFlags() {
    for (List<String> args :
        List.of(
            List.of("--out", "runs/x"),
            List.of(
                "--out",
                "runs/y",
                "--force",
                "--source",
                "kafka",
                "--message-format",
                "avro",
                "--consumer-groups",
                "shared",
                "--partitions",
                "8",
                "--jobs",
                "2",
                "--write-method",
                "at-least-once",
                "--connection-pool",
                "--destination-tables",
                "4",
                "--row-format",
                "typed",
                "--row-encoding",
                "proto",
                "--quota-mb-per-second",
                "2",
                "--quota-window-seconds",
                "5",
                "--fault",
                "drop=0.1",
                "--kill-consumer-at",
                "30",
                "--crash-every",
                "20",
                "--consumer-arg=--failAtMessage=5",
                "--max-dead-letters",
                "3",
                "--live-messages",
                "0"),
            List.of(
                "--out",
                "runs/z",
                "--streams",
                "4",
                "--triggering-frequency",
                "2",
                "--sink",
                "in-process",
                "--runner",
                "DirectRunner",
                "--message-size",
                "10000",
                "--seed",
                "7",
                "--timeout",
                "90"))) {
      RoundSpec spec = parse(args);
      RoundSpec again = parse(spec.asRoundFlags());
      assertEquals(spec.asRoundFlags(), again.asRoundFlags(), String.join(" ", args));
      assertEquals(spec.job(), again.job());
    }
  }

  @Test
  void flagsBecomeTypedSettings() {
    RoundSpec spec =
        parse(
            List.of(
                "--out",
                "runs/x",
                "--source",
                "kafka",
                "--message-format",
                "avro",
                "--write-method",
                "STORAGE_API_AT_LEAST_ONCE"));
    assertEquals(RoundSpec.Source.KAFKA, spec.source());
    assertEquals(88, spec.messageSize(), "Avro's usual size when --message-size is not given");
    assertEquals(WriteMethod.AT_LEAST_ONCE, spec.job().writeMethod());
    assertEquals(RoundSpec.DEFAULT_PARTITIONS, spec.partitions());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> parse(List.of("--out", "runs/x", "--partitions", "4")));
    assertEquals(
        "--partitions and --consumer-groups are for --source kafka; add it, or drop them",
        e.getMessage());
  }

  @Test
  void crashEveryIsCheckedBeforeAnythingStarts() {
    assertEquals(20L, parse(List.of("--out", "runs/x", "--crash-every", "20")).crashEverySeconds());
    assertEquals(
        "--crash-every 3 must be 5 seconds or more: each life must have time to restore and complete a"
            + " checkpoint",
        assertThrows(
                IllegalArgumentException.class,
                () -> parse(List.of("--out", "runs/x", "--crash-every", "3")))
            .getMessage());
    assertEquals(
        "--crash-every needs --sink emulator and --runner FlinkRunner: the verification must outlive the"
            + " killed JVMs, and each restart restores a Flink checkpoint",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    parse(
                        List.of("--out", "runs/x", "--crash-every", "20", "--sink", "in-process")))
            .getMessage());
  }
}
