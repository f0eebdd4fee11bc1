package dev.ingestbench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ingestbench.analysis.report.RoundFiles;
import dev.ingestbench.analysis.report.RoundReport;
import dev.ingestbench.emulator.PubsubEmulator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Carries out a local round: emulator, backlog publisher, consumer, live publisher, report. Every
 * process it starts is stopped before it returns, whatever happens.
 */
final class RoundRunner {
  static final String PROJECT = "ingestbench-local";
  static final String TOPIC = "taxi-rides";
  static final String SUBSCRIPTION = "taxi-rides-round";
  static final String TABLE = "ingestbench.taxi_rides";
  private static final String PUBLISHER_MAIN = "dev.ingestbench.publisher.PublisherPipeline";
  private static final String CONSUMER_MAIN = "dev.ingestbench.consumer.ConsumerPipeline";

  private final RoundCommand flags;

  RoundRunner(RoundCommand flags) {
    this.flags = flags;
  }

  int run() throws Exception {
    Path out = flags.out;
    Files.createDirectories(out);
    writeRoundJson(out);
    long backlog = flags.messages - flags.liveMessages;
    say("Round starting: %,d messages (%,d backlog, %,d live at %,.0f msg/s), %s, %s, %d table(s) -> %s",
        flags.messages, backlog, flags.liveMessages, flags.liveRate, flags.writeMethod, flags.rowFormat,
        flags.destinationTables, out);
    try (ProcessCpuSampler cpu = new ProcessCpuSampler(out);
        PubsubEmulator emulator = PubsubEmulator.start()) {
      say("Pub/Sub emulator on %s", emulator.hostAndPort());
      cpu.watch("emulator", emulator.pid());
      String host = emulator.hostAndPort();
      // The subscription exists before anything is published, so the backlog is kept for it.
      ChildJvm backlogPublisher = publisher(out, host, 0, backlog, 0, RoundFiles.PUBLISHER_BACKLOG, "publisher");
      cpu.watch("publisher", backlogPublisher.pid());
      requireSuccess(backlogPublisher, 3_600);
      try (ChildJvm consumer = consumer(out, host);
          ChildJvm live =
              flags.liveMessages > 0
                  ? publisher(out, host, backlog, flags.liveMessages, flags.liveRate, RoundFiles.PUBLISHER_LIVE, "live-publisher")
                  : null) {
        cpu.watch("consumer", consumer.pid());
        if (live != null) {
          cpu.watch("live-publisher", live.pid());
        }
        if (live != null) {
          requireSuccess(live, flags.timeoutSeconds);
        }
        OptionalInt exit = consumer.waitFor(flags.timeoutSeconds + 120);
        if (exit.isEmpty()) {
          throw new IOException("the consumer did not stop within --timeout " + flags.timeoutSeconds + " s; see consumer.log");
        }
        if (exit.getAsInt() > 1) {
          throw new IOException("the consumer failed (exit " + exit.getAsInt() + "); see " + out.resolve("consumer.log"));
        }
      }
    }
    say("Analysing %s", out);
    Map<String, Object> summary = RoundReport.write(out);
    printSummary(summary, out);
    boolean lost = ((Number) summary.get("lost")).longValue() > 0;
    boolean duplicated = flags.writeMethod.equals("exactly-once") && ((Number) summary.get("duplicates")).longValue() > 0;
    return lost || duplicated ? 1 : 0;
  }

  private ChildJvm publisher(Path out, String host, long first, long count, double rate, String resultFile, String name)
      throws IOException {
    List<String> args = new ArrayList<>(List.of(
        "--pubsubEmulatorHost=" + host,
        "--project=" + PROJECT,
        "--topic=" + TOPIC,
        "--createSubscriptions=" + SUBSCRIPTION,
        "--firstEventIndex=" + first,
        "--numMessages=" + count,
        "--messageSizeBytes=" + flags.messageSize,
        "--seed=" + flags.seed,
        "--resultFile=" + out.resolve(resultFile)));
    if (rate > 0) {
      args.add("--ratePerSecond=" + rate);
    }
    return ChildJvm.start(name, flags.heap, PUBLISHER_MAIN, args, out.resolve(name + ".log"));
  }

  private ChildJvm consumer(Path out, String host) throws IOException {
    List<String> args = new ArrayList<>(List.of(
        "--runner=" + flags.runner,
        "--pubsubEmulatorHost=" + host,
        "--project=" + PROJECT,
        "--subscription=" + SUBSCRIPTION,
        "--outputTable=" + TABLE,
        "--writeMethod=" + flags.writeMethod,
        "--rowFormat=" + flags.rowFormat,
        "--rowEncoding=" + flags.rowEncoding,
        "--destinationTables=" + flags.destinationTables,
        "--emulatorPullBatchSize=" + flags.pullBatchSize,
        "--expectedMessages=" + flags.messages,
        "--timeoutSeconds=" + flags.timeoutSeconds,
        "--localOutputDir=" + out));
    if (flags.connectionPool) {
      args.add("--useStorageApiConnectionPool=true");
    }
    if (flags.streams != null) {
      args.add("--numStorageWriteApiStreams=" + flags.streams);
    }
    if (flags.triggeringFrequency != null) {
      args.add("--storageWriteApiTriggeringFrequencySec=" + flags.triggeringFrequency);
    }
    args.addAll(flags.consumerArgs);
    return ChildJvm.start("consumer", flags.heap, CONSUMER_MAIN, args, out.resolve("consumer.log"));
  }

  private static void requireSuccess(ChildJvm child, long seconds) throws Exception {
    OptionalInt exit = child.waitFor(seconds);
    if (exit.isEmpty()) {
      child.close();
      throw new IOException("the " + child.name() + " did not finish within " + seconds + " s");
    }
    if (exit.getAsInt() != 0) {
      throw new IOException("the " + child.name() + " failed (exit " + exit.getAsInt() + "); see " + child.name() + ".log");
    }
  }

  private void writeRoundJson(Path out) throws IOException {
    Map<String, Object> round = new LinkedHashMap<>();
    round.put("messages", flags.messages);
    round.put("backlog_messages", flags.messages - flags.liveMessages);
    round.put("live_messages", flags.liveMessages);
    round.put("live_rate", flags.liveRate);
    round.put("message_size_bytes", flags.messageSize);
    round.put("write_method", flags.writeMethod);
    round.put("row_format", flags.rowFormat);
    round.put("row_encoding", flags.rowEncoding);
    round.put("destination_tables", flags.destinationTables);
    round.put("connection_pool", flags.connectionPool);
    round.put("runner", flags.runner);
    round.put("pull_batch_size", flags.pullBatchSize);
    round.put("seed", flags.seed);
    round.put("heap", flags.heap);
    round.put("consumer_args", flags.consumerArgs);
    round.put("machine", MachineInfo.describe());
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.resolve(RoundFiles.ROUND).toFile(), round);
  }

  private static void printSummary(Map<String, Object> s, Path out) {
    say("Published %,d | written %,d | distinct %,d | duplicates %,d | dead-lettered %,d | lost %,d",
        s.get("published"), s.get("written"), s.get("distinct_message_ids"), s.get("duplicates"),
        s.get("dead_lettered"), s.get("lost"));
    say("Steady state: %s rows/s, %s rows/s per vCPU, %s rows per consumer CPU-second, consumer CPU %s",
        num(s.get("rows_per_second")), num(s.get("rows_per_second_per_vcpu")), num(s.get("rows_per_cpu_second")),
        s.get("cpu_utilisation") == null ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * ((Number) s.get("cpu_utilisation")).doubleValue()));
    say("Latency publish -> written: p50 %s ms, p99 %s ms (live messages: p50 %s ms, p99 %s ms)",
        s.get("p50_latency_ms"), s.get("p99_latency_ms"), s.get("live_p50_latency_ms"), s.get("live_p99_latency_ms"));
    say("Report: %s", out.resolve(RoundFiles.REPORT));
  }

  private static String num(Object value) {
    return value == null ? "n/a" : String.format(Locale.ROOT, "%,.0f", ((Number) value).doubleValue());
  }

  private static void say(String format, Object... args) {
    System.out.println("[round] " + String.format(Locale.ROOT, format, args));
  }
}
