package dev.ingestbench.analysis.report;

import static dev.ingestbench.analysis.document.Numbers.count;
import static dev.ingestbench.analysis.document.Numbers.f0;
import static dev.ingestbench.analysis.document.Numbers.f1;
import static dev.ingestbench.analysis.document.Numbers.f2;
import static dev.ingestbench.analysis.document.Numbers.pct;

import dev.ingestbench.analysis.cost.CostMarkdown;
import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.plan.PerRowCost;
import dev.ingestbench.analysis.source.ConnectionsCsv;
import dev.ingestbench.analysis.stages.StagesTable;
import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.contracts.ConnectionColumns;
import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.WindowLatency;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
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
    a.maxRate().ifPresent(r -> doc.append(MaxRateMarkdown.render(r)));
    result(doc, a);
    a.liveProfile()
        .ifPresent(p -> doc.append(LiveProfileMarkdown.render(p, a.perSecond(), a.jobs())));
    // A round is a scenario of one stage: its stage and its jobs' verification as a scenario's.
    StagesTable.write(doc, a.steps(), false);
    RoundVerificationMarkdown.write(doc, a);
    RoundEnvironment.write(doc, a);
    throughput(doc, a);
    connections(doc, a);
    DestinationsMarkdown.write(doc, a);
    QuotaRefusalsMarkdown.write(doc, a);
    sinkCalls(doc, a);
    diagnosis(doc, a);
    cost(doc, a);
    RoundCpuMarkdown.write(doc, a);
    DeadLetterMarkdown.write(doc, a.consumer());
    doc.paragraph(
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
            + "`).");
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
    machineShares(doc, a);
  }

  /**
   * Who used the machine over the steady window: the pipeline, and the harness that stands in for
   * Google's services, which on Dataflow runs elsewhere; a reader weighs the rates by it.
   */
  private static void machineShares(Document doc, RoundAnalysis a) {
    MachineLoad load = RoundDiagnosis.steadyLoad(a);
    if (!load.known()) {
      return;
    }
    doc.paragraph(
        "Over the "
            + load.seconds()
            + " s steady window the pipeline used "
            + pct(load.pipelineShare())
            + " of the machine's "
            + load.vcpus()
            + " vCPUs and the harness that stands in for Google's services "
            + pct(load.harnessShare())
            + " (by process: "
            + load.breakdown()
            + "); on Dataflow the harness's part runs elsewhere.");
  }

  /**
   * "stopped: the process was asked to stop ..." reads "Stopped: the process was asked to stop
   * ...".
   */
  static String stopReason(ConsumerResult c) {
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
        rps.plusMinus(Numbers::f0),
        "mean of " + rps.n() + " per-second buckets, 95% CI (t); sd " + f0(rps.stddev()));
    t.row(
        "MB/s (steady state)",
        mbps.plusMinus(Numbers::f2),
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
    if (!Double.isNaN(a.steadyJitShare())) {
      t.row(
          "Rows per CPU-second (consumer, without the JIT)",
          f0(a.rowsPerCpuSecondWithoutJit()),
          "the same, without what the JVM's JIT compiler threads used of it ("
              + pct(a.steadyJitShare())
              + "): the JVM compiling its own code, which a worker that runs for hours has done;"
              + " /proc per-thread CPU (consumer_samples.csv jit_cpu_seconds)");
    }
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
        latency(a.liveLatency()),
        a.liveLatency() == null
            ? RoundSummaryJson.liveLatencyNote(a)
            : count(a.liveLatency().samples())
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
        a.fed()
            ? "Waiting p50 / p99, the fed backlog (publish → visible)"
            : "Waiting p50 / p99, messages published before that",
        latency(a.backlogLatency()),
        a.backlogLatency() == null
            ? "none"
            : count(a.backlogLatency().samples())
                + (a.fed()
                    ? " rows: each waited in its tranche (up to the feed's high mark) before it was"
                        + " read, not pipeline latency"
                    : " rows: backlog and start-up queueing, not pipeline latency"));
    t.row(
        "Latency p50 / p99, all messages",
        latency(c.latency()),
        c.latency() == null ? "none" : count(c.latency().samples()) + " rows, HDR histogram");
  }

  private static String latency(ConsumerResult.Latency l) {
    return l == null ? "not measured" : count(l.p50Ms()) + " / " + count(l.p99Ms()) + " ms";
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

  /**
   * What each kind of Storage Write API call took the BigQuery emulator to answer, and how long it
   * kept each connection waiting on appends over the steady window.
   */
  private static void sinkCalls(Document doc, RoundAnalysis a) {
    SinkTimes sink = SinkTimes.of(a);
    if (sink.calls().isEmpty()) {
      return;
    }
    Table t =
        Table.of(
            Column.text("Call"),
            Column.number("Calls"),
            Column.number("p50 ms"),
            Column.number("p99 ms"),
            Column.number("Max ms"),
            Column.number("Server s"));
    for (var c : sink.calls()) {
      t.row(
          c.rpc(),
          count(c.calls()),
          f1(c.p50Ms()),
          f1(c.p99Ms()),
          f1(c.maxMs()),
          f1(c.serverSeconds()));
    }
    doc.heading(3, "The sink's answers")
        .paragraph(
            "Each call from its arrival at the BigQuery emulator to its answer (a quota's hold"
                + " included), over the round"
                + (sink.known()
                    ? String.format(
                        java.util.Locale.ROOT,
                        "; over the steady window it kept each open connection waiting %s of the"
                            + " time on appends (`%s` in `%s`)",
                        pct(sink.busyShare()),
                        ConnectionColumns.APPEND_SERVER_MICROS,
                        RunFiles.CONNECTIONS)
                    : "")
                + ".")
        .table(t);
  }

  /**
   * What the round's load would cost on Dataflow: an hour at its steady rate, line by line, with
   * the run's and a billion rows' totals.
   */
  private static void cost(Document doc, RoundAnalysis a) {
    RoundCost.of(a)
        .ifPresent(
            c ->
                CostMarkdown.write(
                    doc,
                    c.hour(),
                    "An hour of this round's load at its steady rate on Dataflow, estimated: the"
                        + " rows at this machine's CPU per row (the steady window's) on "
                        + RoundCost.MACHINE_TYPE
                        + " workers fully used, the bytes the local BigQuery counted per second,"
                        + " the messages read and published (docs/cost.md). The run itself: "
                        + CostMarkdown.money(c.run().usd())
                        + "; per billion rows: "
                        + CostMarkdown.money(c.usdPerBillionRows())
                        + " (`summary.json`'s `cost` has the run's lines). A local estimate:"
                        + " Dataflow's own CPU per row differs from this machine's "
                        + f0(a.rowsPerCpuSecond())
                        + " rows per consumer CPU-second; "
                        + PerRowCost.publishedJavaRate()
                        + "."));
  }

  private static void diagnosis(Document doc, RoundAnalysis a) {
    Table t = Table.of(Column.text("Verdict"), Column.text("Evidence"));
    for (Verdict v : RoundDiagnosis.of(a)) {
      t.row(v.verdict(), v.evidence());
    }
    doc.heading(2, "Diagnosis").table(t);
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
