package dev.ingestbench.consumer.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.consumer.ConsumerOptions;
import dev.ingestbench.consumer.local.LocalConsumer;
import dev.ingestbench.consumer.local.LocalRun;
import dev.ingestbench.contracts.ConsumerSampleColumns;
import dev.ingestbench.contracts.DeadLetterSample;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.TimelineColumns;
import dev.ingestbench.events.TaxiRideGenerator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The consumer end to end on real components: the pstest emulator over gRPC, the publisher
 * pipeline, Beam's Storage Write API path on embedded Flink, and the local sink's verification.
 */
@Tag("e2e")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ConsumerRoundTripTest {
  private static final long EVENTS = 20_000;
  @RegisterExtension static final LocalPubsub pubsub = new LocalPubsub();

  @Test
  void exactlyOnceWritesEveryMessageOnceAndDeadLettersTheMalformed(@TempDir Path out)
      throws Exception {
    assertEquals(EVENTS, pubsub.publish("eo-topic", "eo-sub", EVENTS));
    pubsub.publishRaw("eo-topic", "{\"ride_id\": \"truncated", Map.of("event_index", "900000001"));
    pubsub.publishRaw("eo-topic", "{\"ride_id\": \"r\"}", Map.of("event_index", "seven"));
    byte[] latin1 = "{\"ride_id\": \"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1);
    byte[] utf16 = "{\"ride_id\": \"r\"}".getBytes(StandardCharsets.UTF_16);
    pubsub.publishRaw("eo-topic", latin1, Map.of("event_index", "900000003"));
    pubsub.publishRaw("eo-topic", utf16, Map.of("event_index", "900000004"));

    LocalRun.Result result =
        consume(
            out,
            "eo-sub",
            "eo.rides",
            EVENTS + 4,
            "--writeMethod=exactly-once",
            "--rowFormat=json-column");

    EmulatorStatus.Job v = result.verification();
    assertTrue(result.complete(), result.stopReason());
    assertEquals(EVENTS, v.distinctMessageIds());
    assertEquals(EVENTS, v.rowsWritten(), "exactly-once writes each message once");
    assertEquals(0, v.duplicates());
    assertEquals(4, v.deadLettered());
    assertTrue(
        v.deadLetterErrors().stream().anyMatch(e -> e.contains("not valid JSON")),
        v.deadLetterErrors().toString());
    assertTrue(
        v.deadLetterErrors().stream().anyMatch(e -> e.contains("event_index")),
        v.deadLetterErrors().toString());
    // Read back from the local BigQuery: the bytes that were sent, not text decoded with U+FFFD.
    DeadLetterSample latin1Letter = deadLetter(v, 900000003L);
    assertEquals("decode", latin1Letter.stage());
    assertTrue(latin1Letter.error().contains("not valid UTF-8: byte E9"), latin1Letter.error());
    assertArrayEquals(latin1, latin1Letter.payload());
    DeadLetterSample utf16Letter = deadLetter(v, 900000004L);
    assertTrue(utf16Letter.error().contains("UTF-16"), utf16Letter.error());
    assertArrayEquals(utf16, utf16Letter.payload());
    assertEquals("parse", deadLetter(v, 900000001L).stage());
    assertEquals(
        EVENTS,
        timelineRows(out.resolve(RunFiles.TIMELINE)).getOrDefault("rides", 0L),
        "the per-minute timeline accounts for every appended row");
    assertTrue(
        Files.readString(out.resolve(RunFiles.TIMELINE)).contains(",BUFFERED,OK,"),
        "exactly-once appends to BUFFERED streams");
    // The embedded Flink's checkpoint gauges reach the per-second samples (CheckpointReporter).
    List<String> samples = Files.readAllLines(out.resolve(RunFiles.CONSUMER_SAMPLES));
    int completed =
        List.of(samples.get(0).split(",")).indexOf(ConsumerSampleColumns.CHECKPOINTS_COMPLETED);
    String last = samples.get(samples.size() - 1).split(",", -1)[completed];
    assertTrue(!last.isEmpty() && Long.parseLong(last) >= 1, "checkpoints sampled: " + samples);
    // The JIT compiler's CPU is sampled (Linux, as every test machine here): some of it, never
    // more than the JVM's own.
    int jit = List.of(samples.get(0).split(",")).indexOf(ConsumerSampleColumns.JIT_CPU_SECONDS);
    double jitSeconds = 0;
    double cpuSeconds = 0;
    for (String line : samples.subList(1, samples.size())) {
      String[] f = line.split(",", -1);
      jitSeconds += f[jit].isEmpty() ? 0 : Double.parseDouble(f[jit]); // a second not read
      cpuSeconds += Double.parseDouble(f[1]);
    }
    assertTrue(
        jitSeconds > 0 && jitSeconds < cpuSeconds,
        "JIT " + jitSeconds + " of CPU " + cpuSeconds + " s");
  }

  @Test
  void atLeastOnceWithPoolingSpreadsOverFourTablesAndDeadLettersRejectedRows(@TempDir Path out)
      throws Exception {
    assertEquals(EVENTS, pubsub.publish("alo-topic", "alo-sub", EVENTS));
    // Another message reusing event index 3: read (the read de-duplicates on the Pub/Sub message
    // id),
    // written, and counted as a duplicate, not dropped inside the read where nothing would count
    // it.
    pubsub.publishRaw(
        "alo-topic", new TaxiRideGenerator(1, 500).message(3), Map.of("event_index", "3"));
    // A good event without an event_index attribute: written, not checkable, and handled: the run
    // must end once every message is written or dead-lettered (it could not, and timed out).
    pubsub.publishRaw("alo-topic", new TaxiRideGenerator(1, 500).message(4), Map.of());
    // Parses as JSON but misses required fields: a parse-stage dead letter for every route.
    pubsub.publishRaw("alo-topic", "{\"ride_id\": \"r-1\"}", Map.of("event_index", "900000001"));
    // A complete event whose timestamp BigQuery cannot take: refused before any row is built.
    pubsub.publishRaw(
        "alo-topic",
        "{\"ride_id\":\"r-2\",\"ride_status\":\"pickup\",\"latitude\":1.3,\"longitude\":103.8,"
            + "\"passenger_count\":1,\"meter_reading\":1.0,\"meter_increment\":0.01,\"point_idx\":1,"
            + "\"timestamp\":\"not-a-time\"}",
        Map.of("event_index", "900000002"));

    LocalRun.Result result =
        consume(
            out,
            "alo-sub",
            "alo.rides",
            EVENTS + 4, // the events, the second message of index 3, the unindexed one, 2 refused
            "--writeMethod=at-least-once",
            "--rowFormat=typed",
            "--destinationTables=4",
            "--tableSkew=zipf:1.1",
            "--useStorageApiConnectionPool=true");

    EmulatorStatus.Job v = result.verification();
    assertTrue(result.complete(), result.stopReason());
    assertEquals(EVENTS, v.distinctMessageIds(), "no message lost");
    assertEquals(
        1,
        v.sourceDuplicates(),
        "the message that reused index 3 is a second row of it under another message id: the"
            + " source's duplicate, counted");
    assertEquals(0, v.duplicates(), "the sink wrote no message twice");
    assertEquals(1, v.unindexedRows(), "the message without an index, written");
    assertEquals(2, v.deadLettered());
    assertTrue(
        v.deadLetterErrors().stream().anyMatch(e -> e.contains("timestamp 'not-a-time'")),
        v.deadLetterErrors().toString());
    assertEquals(
        "parse", deadLetter(v, 900000002L).stage(), "refused by the event checks, not by BigQuery");
    // Every row checked against the table its event goes to: none elsewhere. zipf:1.1 over 4
    // tables gives table 0 half the rows (1 / (1 + 2^-1.1 + 3^-1.1 + 4^-1.1)), table 3 a ninth.
    assertEquals(0, v.misroutedRows(), v.misroutes().toString());
    assertEquals(EVENTS + 1, v.routeCheckedRows(), "every indexed row's table was checked");
    Map<String, Long> perTable = timelineRows(out.resolve(RunFiles.TIMELINE));
    long hot = perTable.getOrDefault("rides_0", 0L);
    assertTrue(hot > 0.45 * EVENTS && hot < 0.55 * EVENTS, "table 0's share: " + perTable);
    for (int k = 1; k < 4; k++) {
      assertTrue(perTable.getOrDefault("rides_" + k, 0L) >= EVENTS / 12, "tables: " + perTable);
    }
    assertTrue(
        Files.readString(out.resolve(RunFiles.TIMELINE)).contains(",DEFAULT,OK,"),
        "at-least-once appends to the default stream");
  }

  @Test
  void tenKilobyteMessagesPassTheEmulatorsFourMebibyteMessageLimitBothWays(@TempDir Path out)
      throws Exception {
    // 1,000-message batches and 5,000-message pulls of 10 KB messages are ~10 MB and ~50 MB: both
    // beyond gRPC's default 4 MiB, on the publishing and on the pulling side.
    long events = 3_000;
    assertEquals(events, pubsub.publish("big-topic", "big-sub", events, 10_000));
    LocalRun.Result result =
        consume(out, "big-sub", "big.rides", events, "--writeMethod=at-least-once");
    assertTrue(result.complete(), result.stopReason());
    assertEquals(events, result.verification().distinctMessageIds());
  }

  private static LocalRun.Result consume(
      Path out, String subscription, String table, long expected, String... flags)
      throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--pubsubEmulatorHost=" + pubsub.host(),
                "--project=" + LocalPubsub.PROJECT,
                "--subscription=" + subscription,
                "--outputTable=" + table,
                "--expectedMessages=" + expected,
                "--timeoutSeconds=240",
                "--localOutputDir=" + out));
    args.addAll(List.of(flags));
    ConsumerOptions options = LocalConsumer.parse(args.toArray(new String[0]));
    return LocalConsumer.runLocally(options, ConsumerConfig.from(options));
  }

  private static DeadLetterSample deadLetter(EmulatorStatus.Job v, long eventIndex) {
    return v.deadLetters().stream()
        .filter(d -> Long.valueOf(eventIndex).equals(d.eventIndex()))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no dead letter of " + eventIndex + " in " + v.deadLetters()));
  }

  /** Rows per table_id in a per-minute timeline CSV, successful appends only. */
  private static Map<String, Long> timelineRows(Path csv) throws Exception {
    Map<String, Long> rows = new HashMap<>();
    List<String> lines = Files.readAllLines(csv);
    assertEquals(String.join(",", TimelineColumns.ALL), lines.get(0));
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      if (f[6].equals("OK")) {
        rows.merge(f[4], Long.parseLong(f[8]), Long::sum);
      }
    }
    return rows;
  }
}
