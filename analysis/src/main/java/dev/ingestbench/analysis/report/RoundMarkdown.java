package dev.ingestbench.analysis.report;

import static dev.ingestbench.analysis.document.Numbers.count;
import static dev.ingestbench.analysis.document.Numbers.f0;
import static dev.ingestbench.analysis.document.Numbers.f1;
import static dev.ingestbench.analysis.document.Numbers.f2;
import static dev.ingestbench.analysis.document.Numbers.pct;

import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.source.ConnectionsCsv;
import dev.ingestbench.analysis.source.CpuSamplesCsv;
import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.contracts.ConnectionColumns;
import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.DeadLetterSample;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.FaultCount;
import dev.ingestbench.contracts.RoundSettings;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.WindowLatency;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code report.md} of a local round: the tables of the reference rounds, computed, plus charts.
 * Each section is built as a {@link Document} by a method of its own, in the order the report
 * reads.
 */
public final class RoundMarkdown {
  private static final DateTimeFormatter HMS =
      DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter HM =
      DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

  private RoundMarkdown() {}

  public static String render(RoundAnalysis a) {
    Document doc = new Document();
    headline(doc, a);
    a.maxRate().ifPresent(r -> doc.markdown(MaxRateMarkdown.render(r)));
    result(doc, a);
    a.liveProfile()
        .ifPresent(p -> doc.markdown(LiveProfileMarkdown.render(p, a.perSecond(), a.jobs())));
    verification(doc, a);
    environment(doc, a);
    throughput(doc, a);
    connections(doc, a);
    diagnosis(doc, a);
    cpu(doc, a);
    doc.markdown(deadLetters(a.consumer()));
    doc.markdown(
        "Raw data beside this report: `"
            + RunFiles.TIMELINE
            + "` (per minute, the view's columns), `"
            + RunFiles.TIMELINE_PER_SECOND
            + "`, `"
            + RunFiles.CONSUMER_SAMPLES
            + "`, `"
            + RunFiles.CONSUMER_RESULT
            + "`; every number above is computed from them (`"
            + RunFiles.SUMMARY
            + "`).\n");
    return doc.markdown();
  }

  /** The title, when the round ran and why it stopped, and what must be read first. */
  private static void headline(Document doc, RoundAnalysis a) {
    ConsumerResult c = a.consumer();
    doc.heading(
        1,
        "ingestbench round: "
            + c.writeMethod()
            + ", "
            + c.rowFormat()
            + ", "
            + c.destinationTables()
            + " table(s)");
    doc.paragraph("Started " + c.startedAt() + " (UTC). Stopped: " + stopReason(c) + ".");
    if (c.sourceDuplicates() > 0) {
      // Said first: under the project's own publishers it is 0, so any is about the source.
      doc.paragraph(
          "**The source carried "
              + count(c.sourceDuplicates())
              + " event(s) twice** (see Verification): not the pipeline's duplicates.");
    }
    RoundDiagnosis.otherWork(a)
        .ifPresent(v -> doc.paragraph("**" + v.verdict() + "**: " + v.evidence() + "."));
  }

  /**
   * "stopped: the process was asked to stop ..." reads "Stopped: the process was asked to stop
   * ...".
   */
  private static String stopReason(ConsumerResult c) {
    return c.stopReason() == null
        ? "(not recorded)"
        : c.stopReason().replaceFirst("^stopped: ", "");
  }

  /** The headline figures: throughput, CPU, latency, each with how it was measured. */
  private static void result(Document doc, RoundAnalysis a) {
    ConsumerResult c = a.consumer();
    Table t =
        Table.of(Column.text("Metric"), Column.number("Value"), Column.text("How it was measured"));
    Estimate rps = a.steadyRowsPerSecond();
    Estimate mbps = a.steadyMbPerSecond();
    t.row(
        "Rows/s (steady state)",
        f0(rps.mean()) + " ± " + f0((rps.ci95High() - rps.ci95Low()) / 2),
        "mean of " + rps.n() + " per-second buckets, 95% CI (t); sd " + f0(rps.stddev()));
    t.row(
        "MB/s (steady state)",
        f2(mbps.mean()) + " ± " + f2((mbps.ci95High() - mbps.ci95Low()) / 2),
        "total_input_bytes / 10^6 per second, same window");
    t.row(
        "Rows/s per vCPU",
        f0(rps.mean() / a.vcpus()),
        "steady rows/s ÷ " + a.vcpus() + " vCPUs (the machine's)");
    t.row(
        "Rows per CPU-second (consumer)",
        f0(a.rowsPerCpuSecond()),
        "steady rows ÷ "
            + a.consumerCpuSource()
            + " in the window ("
            + f1(a.steadyCpuSeconds())
            + " s)");
    t.row(
        "Consumer CPU utilisation",
        pct(a.steadyCpuUtilisation()),
        a.consumerCpuSource() + " ÷ (vCPUs × seconds); publisher and emulator share the machine");
    latencies(t, a);
    t.row(
        "Rows/s (whole active window)",
        f0(a.activeRowsPerSecond()),
        a.activeSeconds() + " s from first to last row");
    doc.heading(2, "Result").table(t);
  }

  /** The latency rows of the result: live, intended, waiting, all. */
  private static void latencies(Table t, RoundAnalysis a) {
    ConsumerResult c = a.consumer();
    t.row(
        "Latency p50 / p99, live messages (publish → visible)",
        latency(c.liveLatency()),
        c.liveLatency() == null
            ? RoundSummaryJson.liveLatencyNote(a)
            : count(c.liveLatency().samples())
                + " rows published after the consumer caught up at "
                + c.caughtUpAt()
                + " (oldest waiting message under "
                + ConsumerResult.CATCH_UP_LAG_SECONDS
                + " s); the pipeline's own latency");
    WindowLatency.Percentiles intended = c.intendedLatency();
    if (intended != null) {
      t.row(
          "Latency p50 / p99 / p99.9 / max, live messages (intended send → visible)",
          count(intended.p50Ms())
              + " / "
              + count(intended.p99Ms())
              + " / "
              + count(intended.p999Ms())
              + " / "
              + count(intended.maxMs())
              + " ms",
          count(intended.samples())
              + " rows, each against the time the paced live publisher meant to send it (its"
              + " schedule, given to the local BigQuery): the publisher's own delays count too"
              + " (coordinated omission); HDR histogram, 2 significant digits");
    }
    t.row(
        "Waiting p50 / p99, messages published before that",
        latency(c.backlogLatency()),
        c.backlogLatency() == null
            ? "none"
            : count(c.backlogLatency().samples())
                + " rows: backlog and start-up queueing, not pipeline latency");
    t.row(
        "Latency p50 / p99, all messages",
        latency(c.latency()),
        c.latency() == null ? "none" : count(c.latency().samples()) + " rows, HDR histogram");
  }

  private static String latency(ConsumerResult.Latency l) {
    return l == null ? "not measured" : count(l.p50Ms()) + " / " + count(l.p99Ms()) + " ms";
  }

  /** Every message accounted for, and every finding that qualifies the count. */
  private static void verification(Document doc, RoundAnalysis a) {
    ConsumerResult c = a.consumer();
    doc.heading(2, "Verification")
        .table(
            Table.of(
                    Column.number("Published"),
                    Column.number("Written"),
                    Column.number("Distinct event ids"),
                    Column.number("Duplicates"),
                    Column.number("Source duplicates"),
                    Column.number("Dead-lettered"),
                    Column.number("Lost"))
                .row(
                    count(a.published()),
                    count(c.rowsWritten()),
                    count(c.distinctMessageIds()),
                    count(c.duplicates()),
                    count(c.sourceDuplicates()),
                    count(c.deadLettered()),
                    count(a.lost())));
    if (c.sourceDuplicates() > 0) {
      doc.paragraph(
          "**The source carried "
              + count(c.sourceDuplicates())
              + " event(s) twice**: a row whose event index was already written under"
              + " another message id (Pub/Sub) or offset (Kafka). A publisher sent the event again (a resend after"
              + " a timeout the server had in fact stored); the pipeline wrote each message once, as exactly-once"
              + " promises, so these are not counted as duplicates. The project's own publishers never resend"
              + " (docs/methodology.md, 'Every event is published once').");
    }
    if (a.lost() > 0 && c.stopReason() != null) {
      // A consumer that accounted for everything has lost none.
      doc.paragraph(
          "The consumer stopped before it had accounted for every message: "
              + stopReason(c)
              + ". **Lost** counts what it had neither written nor dead-lettered by then, whether it had read it or not.");
    }
    if (c.duplicates() > 0) {
      doc.paragraph(
          count(c.duplicates())
              + " duplicate(s): a message written again under the same message id (a replay after a"
              + " restore from a checkpoint, a retried append): the sink's duplicates, which exactly-once must not"
              + " have (docs/dead-letters.md, 'A message that reuses another's event_index').");
    }
    faults(doc, a);
    content(doc, a);
    if (a.publishFailures() > 0) {
      doc.paragraph("**" + a.publishFailures() + " publish failures.**");
    }
    if (c.foreignRows() > 0) {
      doc.paragraph(
          count(c.foreignRows())
              + " row(s) or dead letter(s) carried an event index outside the "
              + count(a.published())
              + " published (foreign: left over from another run, or published by someone else); they are not"
              + " counted as written or accounted for.");
    }
    if (c.unindexedRows() > 0) {
      doc.paragraph(
          count(c.unindexedRows())
              + " row(s) carried no readable event index and could not be checked.");
    }
    a.emulator().ifPresent(e -> doc.markdown(UnfinishedStreams.markdown(e)));
  }

  /** The faults asked for, each with how often it fired; one that never fired is a warning. */
  private static void faults(Document doc, RoundAnalysis a) {
    List<FaultCount> faults =
        a.emulator()
            .map(e -> e.faults() == null ? List.<FaultCount>of() : e.faults())
            .orElse(List.of());
    if (faults.isEmpty()) {
      return;
    }
    Table t =
        Table.of(
            Column.text("Fault"),
            Column.text("A fraction of"),
            Column.number("Of those the run had"),
            Column.number("Fired"));
    for (FaultCount f : faults) {
      t.row(
          "`" + f.fault() + "`",
          f.fraction() == null ? "(fires once)" : f.of(),
          count(f.outOf()),
          count(f.fired()));
    }
    doc.paragraph("Faults asked of the BigQuery emulator (all jobs together):").table(t);
    for (FaultCount f : faults) {
      if (f.warning() != null) {
        doc.paragraph("**Warning:** " + f.warning() + ".");
      }
    }
  }

  /** Whether every visible row holds what its event must produce. */
  private static void content(Document doc, RoundAnalysis a) {
    ConsumerResult c = a.consumer();
    if (c.mismatchedRows() > 0) {
      doc.paragraph(
              "**"
                  + count(c.mismatchedRows())
                  + " row(s) do not hold what their event must produce** (every visible row"
                  + " is compared, column by column, with the event its index generates from the publishers' seed). The"
                  + " first:")
          .bullets(c.mismatches() == null ? List.of() : c.mismatches());
    } else if (a.emulator().map(e -> e.contentSeed() != null).orElse(false)) {
      doc.paragraph(
          "Every visible row was compared, column by column, with the event its index generates from the"
              + " publishers' seed: none differs.");
    } else {
      doc.paragraph(
          "The rows' content was not checked (the BigQuery emulator was not given the publishers' seed).");
    }
  }

  /** The machine, the runner, the source and sink, and the round's settings. */
  private static void environment(Document doc, RoundAnalysis a) {
    ConsumerResult c = a.consumer();
    Table t = Table.of(Column.text("Parameter"), Column.text("Value"));
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
    String cluster = a.round().map(RoundSettings::flinkCluster).orElse(null);
    t.row("Runner", cluster != null ? cluster : c.runner() + " (embedded, in the consumer JVM)");
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
    a.round()
        .ifPresent(
            r -> {
              t.row(
                  "Messages",
                  String.format(
                      Locale.ROOT,
                      "%,d backlog, then %,d live at %,.0f msg/s once the backlog was drained, ~%d B of %s each",
                      r.backlogMessages(),
                      r.liveMessages(),
                      r.liveRate(),
                      r.messageSizeBytes(),
                      r.messageFormat() == null ? "json" : r.messageFormat()));
              t.row("Heap cap per JVM", r.heap());
            });
    doc.heading(2, "Test environment").table(t);
  }

  /** The consumer kills of --kill-consumer-at and --crash-every, as environment rows. */
  private static void crashes(Table t, RoundAnalysis a) {
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
                        + " the kills, each life's log is consumer-restarted[-N].log)"));
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

  /** The emulator's quota, connection limit, faults and what its store did on purpose. */
  private static String limits(EmulatorStatus e) {
    return (e.quotaMbPerSecond() > 0
            ? String.format(
                Locale.ROOT,
                "%.2f MB/s quota per %.0f s window",
                e.quotaMbPerSecond(),
                e.quotaWindowSeconds())
            : "no throughput quota")
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
                + " appends refused while the quota refilled (--quota-mode reject)"
            : "");
  }

  /** The chart, the phases, and the rows written per minute and per second. */
  private static void throughput(Document doc, RoundAnalysis a) {
    Table phases =
        Table.of(
            Column.text("Phase"),
            Column.text("Start"),
            Column.text("End"),
            Column.number("Seconds"));
    for (Phase p : a.phases()) {
      phases.row(
          p.name(), HMS.format(p.start()), HMS.format(p.end()), Integer.toString(p.buckets()));
    }
    Table minutes =
        Table.of(
            Column.text("Minute (UTC)"),
            Column.number("MB/min"),
            Column.number("MB/s"),
            Column.number("Rows"),
            Column.number("Rows/sec"),
            Column.number("Seconds active"),
            Column.text("Phase"));
    for (Bucket m : a.perMinute().buckets()) {
      long active = activeSeconds(a, m);
      minutes.row(
          HM.format(m.start()),
          f1(m.bytes() / 1e6),
          f2(active == 0 ? 0 : m.bytes() / 1e6 / active),
          count(m.rows()),
          f0(active == 0 ? 0 : m.rows() / (double) active),
          Long.toString(active),
          phaseOf(a, m.start(), m.start().plusSeconds(60)));
    }
    Table seconds =
        Table.of(
            Column.text("Second (UTC)"),
            Column.number("Rows"),
            Column.number("MB"),
            Column.number("Requests"),
            Column.text("Phase"));
    for (Bucket s : a.perSecond().buckets()) {
      seconds.row(
          HMS.format(s.start()),
          count(s.rows()),
          f2(s.bytes() / 1e6),
          Long.toString(s.requests()),
          phaseOf(a, s.start(), s.start().plusSeconds(1)));
    }
    doc.heading(2, "Throughput")
        .image("rows per second", RunFiles.THROUGHPUT_CHART)
        .paragraph(
            "Phases (rule in docs/methodology.md: steady = first to last second at ≥ 80% of the p90 of the 3"
                + " s-smoothed rate):")
        .table(phases)
        .heading(3, "Per minute")
        .table(minutes)
        .paragraph(
            "A local round is short, so minutes are partial: rates per minute divide by the seconds"
                + " with rows written, not by 60.")
        .heading(3, "Per second")
        .details(a.perSecond().buckets().size() + " seconds", seconds);
  }

  /**
   * Connections as the BigQuery emulator counted them: the chart, peaks per job, refusals, quota.
   */
  private static void connections(Document doc, RoundAnalysis a) {
    if (a.connections().isEmpty()) {
      return;
    }
    Map<String, int[]> byJob = new TreeMap<>();
    for (ConnectionsCsv.Sample s : a.connections()) {
      int[] t = byJob.computeIfAbsent(s.job(), j -> new int[3]);
      t[0] = Math.max(t[0], s.maxOpen());
      t[1] += s.opened();
      t[2] += s.refused();
    }
    Table t =
        Table.of(
            Column.text("Job"),
            Column.number("Peak open"),
            Column.number("Opened"),
            Column.number("Refused at the limit"));
    byJob.forEach(
        (job, n) ->
            t.row(
                job.equals(ConnectionColumns.ALL_JOBS) ? "all jobs" : job,
                count(n[0]),
                count(n[1]),
                count(n[2])));
    doc.heading(2, "Connections")
        .image("connections", RunFiles.CONNECTIONS_CHART)
        .paragraph(
            "A connection is one open AppendRows stream, counted by the BigQuery emulator each second"
                + " (what Cloud Monitoring's `write/concurrent_connections` shows).")
        .table(t);
    a.emulator()
        .filter(e -> e.throttledAppends() > 0)
        .ifPresent(
            e ->
                doc.paragraph(
                    "The throughput quota slowed "
                        + count(e.throttledAppends())
                        + " appends, "
                        + f1(e.throttledSeconds())
                        + " s in all (no append was refused)."));
  }

  private static void diagnosis(Document doc, RoundAnalysis a) {
    Table t = Table.of(Column.text("Verdict"), Column.text("Evidence"));
    for (Verdict v : RoundDiagnosis.of(a)) {
      t.row(v.verdict(), v.evidence());
    }
    doc.heading(2, "Diagnosis").table(t);
  }

  /** The consumer's CPU per minute, every process's share, peak heap and connections. */
  private static void cpu(Document doc, RoundAnalysis a) {
    doc.heading(2, "CPU utilisation").image("cpu", RunFiles.CPU_CHART).table(cpuPerMinute(a));
    if (!a.processCpu().isEmpty() && !a.phases().isEmpty()) {
      doc.heading(3, "CPU by process")
          .paragraph(
              "Every process the round started, from `/proc` once a second; % of the machine's "
                  + a.vcpus()
                  + " vCPUs.")
          .table(cpuByProcess(a));
    }
    doc.paragraph(
        "Peak consumer heap in use: "
            + count(Math.round(a.peakConsumerHeapBytes() / 1e6))
            + " MB of a "
            + count(Math.round(a.consumer().maxHeapBytes() / 1e6))
            + " MB cap (per-second samples).");
    doc.paragraph(
        "Peak connections (AppendRows streams open at once, counted by the BigQuery emulator): "
            + count(a.peakConnections())
            + "; opened over the run: "
            + count(
                a.emulator()
                    .map(EmulatorStatus::connectionsOpened)
                    .orElse((long) a.consumer().appendClientsCreated()))
            + ".");
  }

  private static Table cpuPerMinute(RoundAnalysis a) {
    Table t =
        Table.of(
            Column.text("Minute (UTC)"),
            Column.number("Consumer CPU-sec"),
            Column.number("Seconds sampled"),
            Column.number("Utilisation"));
    List<CpuSamplesCsv.Sample> cpu = a.cpu();
    long minute = Long.MIN_VALUE;
    double cpuSum = 0;
    int n = 0;
    for (int i = 0; i <= cpu.size(); i++) {
      long m =
          i < cpu.size()
              ? Math.floorDiv(cpu.get(i).second().getEpochSecond() - 1, 60) * 60
              : Long.MAX_VALUE;
      if (m != minute && n > 0) {
        t.row(
            HM.format(Instant.ofEpochSecond(minute)),
            f1(cpuSum),
            Integer.toString(n),
            pct(cpuSum / (a.vcpus() * (double) n)));
        cpuSum = 0;
        n = 0;
      }
      if (i < cpu.size()) {
        minute = m;
        cpuSum += cpu.get(i).cpuSeconds();
        n++;
      }
    }
    return t;
  }

  private static Table cpuByProcess(RoundAnalysis a) {
    Table t =
        Table.of(
            Column.text("Process"),
            Column.number("Steady window CPU-s"),
            Column.number("Steady share"),
            Column.number("Active window CPU-s"),
            Column.number("Active share"));
    Instant activeFrom = a.phases().get(0).start();
    Instant activeTo = a.phases().get(a.phases().size() - 1).end();
    long activeSeconds = activeTo.getEpochSecond() - activeFrom.getEpochSecond();
    Map<String, Double> active = a.processCpuSeconds(activeFrom, activeTo);
    Map<String, Double> steadyCpu =
        a.steady().map(p -> a.processCpuSeconds(p.start(), p.end())).orElse(Map.of());
    long steadySeconds = a.steady().map(Phase::buckets).orElse(0);
    for (String process : active.keySet()) {
      double s = steadyCpu.getOrDefault(process, 0.0);
      double total = active.get(process);
      t.row(
          process,
          f1(s),
          steadySeconds == 0 ? "n/a" : pct(s / (a.vcpus() * (double) steadySeconds)),
          f1(total),
          activeSeconds == 0 ? "n/a" : pct(total / (a.vcpus() * (double) activeSeconds)));
    }
    return t;
  }

  /**
   * The first dead letters as the dead-letter table holds them: stage, reason and the payload's
   * first bytes (printable ASCII as is, anything else as \\xNN, so an encoding problem is visible).
   */
  static String deadLetters(ConsumerResult c) {
    Document doc = new Document();
    if (c.deadLetterWriteFailures() > 0) {
      doc.paragraph(
          "**"
              + count(c.deadLetterWriteFailures())
              + " dead letter(s) could not be written to the dead-letter table**: those"
              + " messages are neither written nor kept (the consumer's log has each reason).");
    }
    List<DeadLetterSample> samples =
        c.deadLetterSamples() == null ? List.of() : c.deadLetterSamples();
    List<String> errors = c.deadLetterErrors() == null ? List.of() : c.deadLetterErrors();
    if (samples.isEmpty() && errors.isEmpty()) {
      return doc.markdown();
    }
    doc.heading(2, "Dead letters");
    if (samples.isEmpty()) {
      return doc.paragraph("First reasons recorded in the dead-letter table:")
          .bullets(errors.stream().map(e -> e.replace('\n', ' ')).toList())
          .markdown();
    }
    Table t =
        Table.of(
            Column.plain("Stage"),
            Column.number("Event index"),
            Column.number("Bytes"),
            Column.plain("Reason"),
            Column.plain("Payload starts"));
    for (DeadLetterSample d : samples) {
      t.row(
          d.stage(),
          d.eventIndex() == null ? "-" : d.eventIndex().toString(),
          d.payloadBytes() == null ? "-" : count(d.payloadBytes()),
          String.valueOf(d.error()).replace('\n', ' ').replace("|", "\\|"),
          "`" + preview(d.payload(), 32) + "`");
    }
    return doc.paragraph(
            count(c.deadLettered())
                + " dead-lettered; the first "
                + samples.size()
                + " as the dead-letter table holds them (its `payload` column is the message byte for byte):")
        .table(t)
        .markdown();
  }

  private static String preview(byte[] payload, int max) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < Math.min(payload.length, max); i++) {
      int b = payload[i] & 0xFF;
      text.append(
          b >= 0x20 && b < 0x7F && b != '`' && b != '|' && b != '\\'
              ? String.valueOf((char) b)
              : String.format(Locale.ROOT, "\\x%02X", b));
    }
    return payload.length > max ? text + "..." : text.toString();
  }

  private static long activeSeconds(RoundAnalysis a, Bucket minute) {
    return a.perSecond().buckets().stream()
        .filter(
            s ->
                !s.start().isBefore(minute.start())
                    && s.start().isBefore(minute.start().plusSeconds(60)))
        .filter(s -> s.rows() > 0)
        .count();
  }

  /** The phase covering most of [from, to), or "-" outside every phase. */
  private static String phaseOf(RoundAnalysis a, Instant from, Instant to) {
    String best = "-";
    long bestOverlap = 0;
    for (Phase p : a.phases()) {
      long overlap =
          Math.min(to.getEpochSecond(), p.end().getEpochSecond())
              - Math.max(from.getEpochSecond(), p.start().getEpochSecond());
      if (overlap > bestOverlap) {
        bestOverlap = overlap;
        best = p.name();
      }
    }
    return best;
  }
}
