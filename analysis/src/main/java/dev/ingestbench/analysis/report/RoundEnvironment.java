package dev.ingestbench.analysis.report;

import static dev.ingestbench.analysis.document.Numbers.count;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.RoundSettings;
import java.util.Locale;
import java.util.Map;

/**
 * The round report's "Test environment": the machine, runner, source, sink and the round's
 * settings.
 */
final class RoundEnvironment {
  private RoundEnvironment() {}

  /** The machine, the runner, the source and sink, and the round's settings. */
  static void write(Document doc, RoundAnalysis a) {
    ConsumerResult c = a.consumer();
    Table t = Table.of(Column.text("Parameter"), Column.text("Value"));
    machine(t, a);
    String cluster = a.round().map(RoundSettings::flinkCluster).orElse(null);
    t.row("Runner", cluster != null ? cluster : c.runner() + " (embedded, in the consumer JVM)");
    source(t, a);
    t.row("BigQuery", bigQuery(a));
    crashes(t, a);
    if (a.jobs() > 1) {
      t.row(
          "Jobs",
          a.jobs()
              + " consumer JVMs, each "
              + (a.round().map(RoundSettings::kafka).orElse(false)
                  ? "reading every partition"
                  : "on its own subscription")
              + ", writing the same table(s)");
    }
    t.row(
        "Write method",
        c.writeMethod() + (c.useStorageApiConnectionPool() ? ", connection pool on" : ""));
    t.row("Row format", c.rowFormat());
    t.row("Destination tables", Integer.toString(c.destinationTables()));
    a.round().ifPresent(r -> messages(t, r));
    doc.heading(2, "Test environment").table(t);
  }

  /** The machine, its Java, and how fast it was that day. */
  private static void machine(Table t, RoundAnalysis a) {
    Map<String, Object> machine = a.round().map(RoundSettings::machine).orElse(Map.of());
    t.row(
        "Machine",
        machine.isEmpty()
            ? a.vcpus() + " vCPUs"
            : machine.get("vcpus")
                + " vCPUs, "
                + machine.get("memory_gb")
                + " GB, "
                + machine.get("os"));
    if (machine.containsKey("java")) {
      t.row("Java", String.valueOf(machine.get("java")));
    }
    a.round()
        .map(RoundSettings::machineCalibration)
        .ifPresent(
            speed ->
                t.row(
                    "Machine speed that day",
                    speed.describe()
                        + "; round.json's machine_calibration: this machine's speed varies from"
                        + " day to day, so compare runs of different days by it"));
  }

  /** The Kafka broker and its partitions and groups, or the Pub/Sub emulator. */
  private static void source(Table t, RoundAnalysis a) {
    if (a.round().map(RoundSettings::kafka).orElse(false)) {
      RoundSettings r = a.round().get();
      t.row(
          "Source",
          "local Apache Kafka broker (KRaft, one node, its own JVM), "
              + r.partitions()
              + " partitions, read with Beam's KafkaIO"
              + (r.consumerGroups() == null
                  ? ""
                  : r.consumerGroups().equals("shared")
                      ? "; every job in one consumer group"
                      : "; a consumer group per job"));
    } else {
      t.row("Pub/Sub", "local emulator (pstest), plaintext gRPC on loopback");
    }
  }

  /** The backlog, the live messages, their size and format, and the heap. */
  private static void messages(Table t, RoundSettings r) {
    String live =
        r.liveMessages() == 0
            ? ", no live messages"
            : String.format(
                Locale.ROOT,
                ", then %,d live at %,.0f msg/s once the backlog was drained",
                r.liveMessages(),
                r.liveRate());
    t.row(
        "Messages",
        String.format(
            Locale.ROOT,
            "%,d backlog%s%s, ~%d B of %s each",
            r.backlogMessages(),
            Boolean.TRUE.equals(r.fed())
                ? " fed in tranches as the jobs read it (--feed: topped up to the feed's"
                    + " high mark; feed.json)"
                : "",
            live,
            r.messageSizeBytes(),
            r.messageFormat() == null ? "json" : r.messageFormat()));
    t.row("Heap cap per JVM", r.heap());
  }

  /**
   * The consumer kills of --kill-consumer-at and --crash-every, and --savepoint-at's planned stop,
   * as environment rows.
   */
  private static void crashes(Table t, RoundAnalysis a) {
    a.round()
        .map(RoundSettings::savepointAt)
        .ifPresent(
            at ->
                t.row(
                    "Consumer restart",
                    "--savepoint-at "
                        + at
                        + ": every consumer still running then to be stopped with a Flink"
                        + " savepoint (once it had written) and started again from it; the round's"
                        + " output says each stop and restore, or why none came; the verification"
                        + " above spans both lives (consumer[-J].1.log is the first life's)"));
    a.round()
        .filter(r -> r.crashEverySeconds() == null)
        .map(RoundSettings::killConsumerAt)
        .ifPresent(
            at ->
                t.row(
                    "Consumer crash",
                    "every consumer JVM killed (SIGKILL) "
                        + at
                        + " s after it started and started again from"
                        + " its last completed Flink checkpoint; the verification above spans both lives"));
    a.round()
        .map(RoundSettings::crashEverySeconds)
        .ifPresent(
            every ->
                t.row(
                    "Consumer crash",
                    "every consumer JVM"
                        + " killed (SIGKILL) "
                        + every
                        + " s after each of its lives started writing"
                        + a.round()
                            .map(RoundSettings::killConsumerAt)
                            .map(first -> " (the first time at " + first + " s)")
                            .orElse("")
                        + ", once Flink had completed a checkpoint after that, and started again from its last checkpoint,"
                        + " until it had written every message; the verification above spans every life (the round's log counts"
                        + " the kills; consumer[-J].log is the last life's, consumer[-J].1.log, consumer[-J].2.log, ... the"
                        + " earlier ones)"));
  }

  /** Where the rows went and under which limits, from round.json and the emulator's own status. */
  private static String bigQuery(RoundAnalysis a) {
    String where =
        a.round().map(RoundSettings::sink).orElse("emulator").equals("in-process")
            ? "BigQuery emulator inside the consumer JVM"
            : "BigQuery emulator in its own JVM";
    String path =
        where + ", written through Beam and the official client (StreamWriter) over plaintext gRPC";
    return a.emulator().map(e -> path + "; limits: " + limits(e)).orElse(path);
  }

  /**
   * The throughput quota: one that throttles, or the tiers that refuse while they refill ({@code
   * reject}: the cell alone; {@code two-tier}: the regional one over the cell).
   */
  private static String quota(EmulatorStatus e) {
    if (e.quotaMbPerSecond() <= 0) {
      return "no throughput quota";
    }
    if (e.quotaTiersOrEmpty().isEmpty()) {
      return String.format(
          Locale.ROOT,
          "%.2f MB/s quota per %.0f s window",
          e.quotaMbPerSecond(),
          e.quotaWindowSeconds());
    }
    return String.join(
            " over ",
            e.quotaTiersOrEmpty().stream()
                .map(
                    t ->
                        String.format(
                            Locale.ROOT,
                            "%s quota of %.2f MB/s per %.0f s window",
                            t.tier(),
                            t.mbPerSecond(),
                            t.windowSeconds()))
                .toList())
        + " (refusing appends while refilling)";
  }

  /** The emulator's quota, connection limit, faults and what its store did on purpose. */
  private static String limits(EmulatorStatus e) {
    return quota(e)
        + ", "
        + count(e.maxConnections())
        + " connections"
        + (e.faultsInjected() > 0 ? "; " + e.faultsInjected() + " faults injected" : "")
        + (e.rowsDiscarded() + e.rowsDuplicated() > 0
            ? " (the store itself discarded "
                + count(e.rowsDiscarded())
                + " rows and stored "
                + count(e.rowsDuplicated())
                + " twice: the verification must find exactly those)"
            : "")
        + (e.rejectedAppends() > 0
            ? "; "
                + count(e.rejectedAppends())
                + " appends refused while the quota refilled"
                + (e.quotaRefusalsByTier().isEmpty() ? "" : " (" + e.quotaRefusalsByTier() + ")")
            : "");
  }
}
