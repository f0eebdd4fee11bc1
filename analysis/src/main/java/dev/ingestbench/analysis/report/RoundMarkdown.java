package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.diagnosis.Verdict;
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
 */
public final class RoundMarkdown {
  /**
   * Connections as the BigQuery emulator counted them: the chart, peaks per job, refusals, quota.
   */
  private static void connections(StringBuilder md, RoundAnalysis a) {
    if (a.connections().isEmpty()) {
      return;
    }
    md.append("## Connections\n\n![connections](")
        .append(RunFiles.CONNECTIONS_CHART)
        .append(")\n\n");
    md.append(
            "A connection is one open AppendRows stream, counted by the BigQuery emulator each second")
        .append(" (what Cloud Monitoring's `write/concurrent_connections` shows).\n\n");
    md.append("| Job | Peak open | Opened | Refused at the limit |\n|:---|---:|---:|---:|\n");
    Map<String, int[]> byJob = new TreeMap<>();
    for (ConnectionsCsv.Sample s : a.connections()) {
      int[] t = byJob.computeIfAbsent(s.job(), j -> new int[3]);
      t[0] = Math.max(t[0], s.maxOpen());
      t[1] += s.opened();
      t[2] += s.refused();
    }
    byJob.forEach(
        (job, t) ->
            md.append(
                String.format(
                    Locale.ROOT,
                    "| %s | %,d | %,d | %,d |%n",
                    job.equals(ConnectionColumns.ALL_JOBS) ? "all jobs" : job,
                    t[0],
                    t[1],
                    t[2])));
    a.emulator()
        .ifPresent(
            e -> {
              if (e.throttledAppends() > 0) {
                md.append(
                    String.format(
                        Locale.ROOT,
                        "%nThe throughput quota slowed %,d appends, %.1f s in all (no append was refused).%n",
                        e.throttledAppends(),
                        e.throttledSeconds()));
              }
            });
    md.append('\n');
  }

  /** Where the rows went and under which limits, from round.json and the emulator's own status. */
  private static String bigQuery(RoundAnalysis a) {
    String where =
        a.round().map(RoundSettings::sink).orElse("emulator").equals("in-process")
            ? "BigQuery emulator inside the consumer JVM"
            : "BigQuery emulator in its own JVM";
    String path =
        where + ", written through Beam and the official client (StreamWriter) over plaintext gRPC";
    return a.emulator()
        .map(
            e ->
                path
                    + String.format(
                        Locale.ROOT,
                        "; limits: %s, %,d connections%s",
                        e.quotaMbPerSecond() > 0
                            ? String.format(
                                Locale.ROOT,
                                "%.2f MB/s quota per %.0f s window",
                                e.quotaMbPerSecond(),
                                e.quotaWindowSeconds())
                            : "no throughput quota",
                        e.maxConnections(),
                        (e.faultsInjected() > 0
                                ? "; " + e.faultsInjected() + " faults injected"
                                : "")
                            + (e.rowsDiscarded() + e.rowsDuplicated() > 0
                                ? String.format(
                                    Locale.ROOT,
                                    " (the store itself discarded %,d rows and stored %,d twice: the verification must find exactly"
                                        + " those)",
                                    e.rowsDiscarded(),
                                    e.rowsDuplicated())
                                : "")
                            + (e.rejectedAppends() > 0
                                ? String.format(
                                    Locale.ROOT,
                                    "; %,d appends refused while the quota"
                                        + " refilled (--quota-mode reject)",
                                    e.rejectedAppends())
                                : "")))
        .orElse(path);
  }

  private static String latency(ConsumerResult.Latency l) {
    return l == null
        ? "not measured"
        : String.format(Locale.ROOT, "%,d / %,d ms", l.p50Ms(), l.p99Ms());
  }

  private static final DateTimeFormatter HMS =
      DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter HM =
      DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

  private RoundMarkdown() {}

  public static String render(RoundAnalysis a) {
    StringBuilder md = new StringBuilder();
    ConsumerResult c = a.consumer();
    md.append("# ingestbench round: ")
        .append(c.writeMethod())
        .append(", ")
        .append(c.rowFormat())
        .append(", ")
        .append(c.destinationTables())
        .append(" table(s)\n\n");
    // "stopped: the process was asked to stop ..." reads "Stopped: the process was asked to stop
    // ...".
    String stopReason =
        c.stopReason() == null ? "(not recorded)" : c.stopReason().replaceFirst("^stopped: ", "");
    md.append("Started ")
        .append(c.startedAt())
        .append(" (UTC). Stopped: ")
        .append(stopReason)
        .append(".\n\n");
    if (c.sourceDuplicates() > 0) {
      // Said first: under the project's own publishers it is 0, so any is about the source.
      md.append(
          String.format(
              Locale.ROOT,
              "**The source carried %,d event(s) twice** (see Verification): not the pipeline's"
                  + " duplicates.%n%n",
              c.sourceDuplicates()));
    }
    RoundDiagnosis.otherWork(a)
        .ifPresent(
            v ->
                md.append("**")
                    .append(v.verdict())
                    .append("**: ")
                    .append(v.evidence())
                    .append(".\n\n"));

    a.maxRate().ifPresent(r -> md.append(MaxRateMarkdown.render(r)));
    md.append("## Result\n\n");
    md.append("| Metric | Value | How it was measured |\n|:---|---:|:---|\n");
    Estimate rps = a.steadyRowsPerSecond();
    Estimate mbps = a.steadyMbPerSecond();
    row(
        md,
        "Rows/s (steady state)",
        f0(rps.mean()) + " ± " + f0((rps.ci95High() - rps.ci95Low()) / 2),
        "mean of " + rps.n() + " per-second buckets, 95% CI (t); sd " + f0(rps.stddev()));
    row(
        md,
        "MB/s (steady state)",
        f2(mbps.mean()) + " ± " + f2((mbps.ci95High() - mbps.ci95Low()) / 2),
        "total_input_bytes / 10^6 per second, same window");
    row(
        md,
        "Rows/s per vCPU",
        f0(rps.mean() / a.vcpus()),
        "steady rows/s ÷ " + a.vcpus() + " vCPUs (the machine's)");
    row(
        md,
        "Rows per CPU-second (consumer)",
        f0(a.rowsPerCpuSecond()),
        "steady rows ÷ "
            + a.consumerCpuSource()
            + " in the window ("
            + f1(a.steadyCpuSeconds())
            + " s)");
    row(
        md,
        "Consumer CPU utilisation",
        pct(a.steadyCpuUtilisation()),
        a.consumerCpuSource() + " ÷ (vCPUs × seconds); publisher and emulator share the machine");
    row(
        md,
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
      row(
          md,
          "Latency p50 / p99 / p99.9 / max, live messages (intended send → visible)",
          String.format(
              Locale.ROOT,
              "%,d / %,d / %,d / %,d ms",
              intended.p50Ms(),
              intended.p99Ms(),
              intended.p999Ms(),
              intended.maxMs()),
          count(intended.samples())
              + " rows, each against the time the paced live publisher meant to send it (its"
              + " schedule, given to the local BigQuery): the publisher's own delays count too"
              + " (coordinated omission); HDR histogram, 2 significant digits");
    }
    row(
        md,
        "Waiting p50 / p99, messages published before that",
        latency(c.backlogLatency()),
        c.backlogLatency() == null
            ? "none"
            : count(c.backlogLatency().samples())
                + " rows: backlog and start-up queueing, not pipeline latency");
    row(
        md,
        "Latency p50 / p99, all messages",
        latency(c.latency()),
        c.latency() == null ? "none" : count(c.latency().samples()) + " rows, HDR histogram");
    row(
        md,
        "Rows/s (whole active window)",
        f0(a.activeRowsPerSecond()),
        a.activeSeconds() + " s from first to last row");
    md.append('\n');
    a.liveProfile()
        .ifPresent(p -> md.append(LiveProfileMarkdown.render(p, a.perSecond(), a.jobs())));

    md.append(
            "## Verification\n\n| Published | Written | Distinct event ids | Duplicates | Source duplicates | Dead-lettered | Lost |\n")
        .append("|---:|---:|---:|---:|---:|---:|---:|\n");
    md.append(
        String.format(
            Locale.ROOT,
            "| %,d | %,d | %,d | %,d | %,d | %,d | %,d |%n%n",
            a.published(),
            c.rowsWritten(),
            c.distinctMessageIds(),
            c.duplicates(),
            c.sourceDuplicates(),
            c.deadLettered(),
            a.lost()));
    if (c.sourceDuplicates() > 0) {
      md.append(
          String.format(
              Locale.ROOT,
              "**The source carried %,d event(s) twice**: a row whose event index was already written under"
                  + " another message id (Pub/Sub) or offset (Kafka). A publisher sent the event again (a resend after"
                  + " a timeout the server had in fact stored); the pipeline wrote each message once, as exactly-once"
                  + " promises, so these are not counted as duplicates. The project's own publishers never resend"
                  + " (docs/methodology.md, 'Every event is published once').%n%n",
              c.sourceDuplicates()));
    }
    if (a.lost() > 0
        && c.stopReason() != null) { // a consumer that accounted for everything has lost none
      md.append("The consumer stopped before it had accounted for every message: ")
          .append(stopReason)
          .append(
              ". **Lost** counts what it had neither written nor dead-lettered by then, whether it had read it or not.\n\n");
    }
    if (c.duplicates() > 0) {
      md.append(
          String.format(
              Locale.ROOT,
              "%,d duplicate(s): a message written again under the same message id (a replay after a"
                  + " restore from a checkpoint, a retried append): the sink's duplicates, which exactly-once must not"
                  + " have (docs/dead-letters.md, 'A message that reuses another's event_index').%n%n",
              c.duplicates()));
    }
    faults(md, a);
    if (c.mismatchedRows() > 0) {
      md.append(
          String.format(
              Locale.ROOT,
              "**%,d row(s) do not hold what their event must produce** (every visible row"
                  + " is compared, column by column, with the event its index generates from the publishers' seed). The first:%n%n",
              c.mismatchedRows()));
      (c.mismatches() == null ? List.<String>of() : c.mismatches())
          .forEach(m -> md.append("- ").append(m).append('\n'));
      md.append('\n');
    } else if (a.emulator().map(e -> e.contentSeed() != null).orElse(false)) {
      md.append(
          "Every visible row was compared, column by column, with the event its index generates from the"
              + " publishers' seed: none differs.\n\n");
    } else {
      md.append(
          "The rows' content was not checked (the BigQuery emulator was not given the publishers' seed).\n\n");
    }
    if (a.publishFailures() > 0) {
      md.append("**").append(a.publishFailures()).append(" publish failures.**\n\n");
    }
    if (c.foreignRows() > 0) {
      md.append(
          String.format(
              Locale.ROOT,
              "%,d row(s) or dead letter(s) carried an event index outside the %,d published"
                  + " (foreign: left over from another run, or published by someone else); they are not counted as written"
                  + " or accounted for.%n%n",
              c.foreignRows(),
              a.published()));
    }
    if (c.unindexedRows() > 0) {
      md.append(
          String.format(
              Locale.ROOT,
              "%,d row(s) carried no readable event index and could not be checked.%n%n",
              c.unindexedRows()));
    }
    a.emulator().ifPresent(e -> md.append(UnfinishedStreams.markdown(e)));

    md.append("## Test environment\n\n| Parameter | Value |\n|:---|:---|\n");
    Map<String, Object> machine = a.round().map(RoundSettings::machine).orElse(Map.of());
    row2(
        md,
        "Machine",
        machine.isEmpty()
            ? a.vcpus() + " vCPUs"
            : machine.get("vcpus")
                + " vCPUs, "
                + machine.get("memory_gb")
                + " GB, "
                + machine.get("os"));
    if (machine.containsKey("java")) {
      row2(md, "Java", String.valueOf(machine.get("java")));
    }
    String cluster = a.round().map(RoundSettings::flinkCluster).orElse(null);
    row2(md, "Runner", cluster != null ? cluster : c.runner() + " (embedded, in the consumer JVM)");
    if (a.round().map(RoundSettings::kafka).orElse(false)) {
      RoundSettings r = a.round().get();
      row2(
          md,
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
      row2(md, "Pub/Sub", "local emulator (pstest), plaintext gRPC on loopback");
    }
    row2(md, "BigQuery", bigQuery(a));
    a.round()
        .filter(r -> r.crashEverySeconds() == null)
        .map(RoundSettings::killConsumerAt)
        .ifPresent(
            t ->
                row2(
                    md,
                    "Consumer crash",
                    "every consumer JVM killed (SIGKILL) "
                        + t
                        + " s after it started and started again from"
                        + " its last completed Flink checkpoint; the verification above spans both lives"));
    a.round()
        .map(RoundSettings::crashEverySeconds)
        .ifPresent(
            t ->
                row2(
                    md,
                    "Consumer crash",
                    "every consumer JVM"
                        + " killed (SIGKILL) "
                        + t
                        + " s after each of its lives started writing"
                        + a.round()
                            .map(RoundSettings::killConsumerAt)
                            .map(first -> " (the first time at " + first + " s)")
                            .orElse("")
                        + ", once Flink had completed a checkpoint after that, and started again from its last checkpoint,"
                        + " until it had written every message; the verification above spans every life (the round's log counts"
                        + " the kills, each life's log is consumer-restarted[-N].log)"));
    if (a.jobs() > 1) {
      row2(
          md,
          "Jobs",
          a.jobs()
              + " consumer JVMs, each "
              + (a.round().map(RoundSettings::kafka).orElse(false)
                  ? "reading every partition"
                  : "on its own subscription")
              + ", writing the same table(s)");
    }
    row2(
        md,
        "Write method",
        c.writeMethod() + (c.useStorageApiConnectionPool() ? ", connection pool on" : ""));
    row2(md, "Row format", c.rowFormat());
    row2(md, "Destination tables", Integer.toString(c.destinationTables()));
    a.round()
        .ifPresent(
            r -> {
              row2(
                  md,
                  "Messages",
                  String.format(
                      Locale.ROOT,
                      "%,d backlog, then %,d live at %,.0f msg/s once the backlog was drained, ~%d B of %s each",
                      r.backlogMessages(),
                      r.liveMessages(),
                      r.liveRate(),
                      r.messageSizeBytes(),
                      r.messageFormat() == null ? "json" : r.messageFormat()));
              row2(md, "Heap cap per JVM", r.heap());
            });
    md.append('\n');

    md.append("## Throughput\n\n![rows per second](")
        .append(RunFiles.THROUGHPUT_CHART)
        .append(")\n\n");
    md.append(
        "Phases (rule in docs/methodology.md: steady = first to last second at ≥ 80% of the p90 of the 3 s-smoothed rate):\n\n");
    md.append("| Phase | Start | End | Seconds |\n|:---|:---|:---|---:|\n");
    for (Phase p : a.phases()) {
      md.append("| ")
          .append(p.name())
          .append(" | ")
          .append(HMS.format(p.start()))
          .append(" | ")
          .append(HMS.format(p.end()))
          .append(" | ")
          .append(p.buckets())
          .append(" |\n");
    }
    md.append(
            "\n### Per minute\n\n| Minute (UTC) | MB/min | MB/s | Rows | Rows/sec | Seconds active | Phase |\n")
        .append("|:---|---:|---:|---:|---:|---:|:---|\n");
    for (Bucket m : a.perMinute().buckets()) {
      long active = activeSeconds(a, m);
      double perSecond = active == 0 ? 0 : m.rows() / (double) active;
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %.1f | %.2f | %,d | %,.0f | %d | %s |%n",
              HM.format(m.start()),
              m.bytes() / 1e6,
              active == 0 ? 0 : m.bytes() / 1e6 / active,
              m.rows(),
              perSecond,
              active,
              phaseOf(a, m.start(), m.start().plusSeconds(60))));
    }
    md.append(
        "\nA local round is short, so minutes are partial: rates per minute divide by the seconds"
            + " with rows written, not by 60.\n\n");
    md.append("### Per second\n\n<details><summary>")
        .append(a.perSecond().buckets().size())
        .append(" seconds</summary>\n\n")
        .append("| Second (UTC) | Rows | MB | Requests | Phase |\n|:---|---:|---:|---:|:---|\n");
    for (Bucket s : a.perSecond().buckets()) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %,d | %.2f | %d | %s |%n",
              HMS.format(s.start()),
              s.rows(),
              s.bytes() / 1e6,
              s.requests(),
              phaseOf(a, s.start(), s.start().plusSeconds(1))));
    }
    md.append("\n</details>\n\n");

    connections(md, a);
    md.append("## Diagnosis\n\n| Verdict | Evidence |\n|:---|:---|\n");
    for (Verdict v : RoundDiagnosis.of(a)) {
      md.append("| ").append(v.verdict()).append(" | ").append(v.evidence()).append(" |\n");
    }
    md.append('\n');
    md.append("## CPU utilisation\n\n![cpu](").append(RunFiles.CPU_CHART).append(")\n\n");
    md.append(
        "| Minute (UTC) | Consumer CPU-sec | Seconds sampled | Utilisation |\n|:---|---:|---:|---:|\n");
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
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %.1f | %d | %s |%n",
                HM.format(Instant.ofEpochSecond(minute)),
                cpuSum,
                n,
                pct(cpuSum / (a.vcpus() * (double) n))));
        cpuSum = 0;
        n = 0;
      }
      if (i < cpu.size()) {
        minute = m;
        cpuSum += cpu.get(i).cpuSeconds();
        n++;
      }
    }
    if (!a.processCpu().isEmpty() && !a.phases().isEmpty()) {
      md.append(
              "\n### CPU by process\n\nEvery process the round started, from `/proc` once a second; % of the machine's ")
          .append(a.vcpus())
          .append(
              " vCPUs.\n\n| Process | Steady window CPU-s | Steady share | Active window CPU-s | Active share |\n")
          .append("|:---|---:|---:|---:|---:|\n");
      Instant activeFrom = a.phases().get(0).start();
      Instant activeTo = a.phases().get(a.phases().size() - 1).end();
      long activeSeconds = activeTo.getEpochSecond() - activeFrom.getEpochSecond();
      Map<String, Double> active = a.processCpuSeconds(activeFrom, activeTo);
      Map<String, Double> steadyCpu =
          a.steady().map(p -> a.processCpuSeconds(p.start(), p.end())).orElse(Map.of());
      long steadySeconds = a.steady().map(Phase::buckets).orElse(0);
      for (String process : active.keySet()) {
        double s = steadyCpu.getOrDefault(process, 0.0);
        double t = active.get(process);
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %.1f | %s | %.1f | %s |%n",
                process,
                s,
                steadySeconds == 0 ? "n/a" : pct(s / (a.vcpus() * (double) steadySeconds)),
                t,
                activeSeconds == 0 ? "n/a" : pct(t / (a.vcpus() * (double) activeSeconds))));
      }
    }
    md.append(
        String.format(
            Locale.ROOT,
            "%nPeak consumer heap in use: %,d MB of a %,d MB cap (per-second samples).%n",
            Math.round(a.peakConsumerHeapBytes() / 1e6),
            Math.round(c.maxHeapBytes() / 1e6)));
    md.append(
        String.format(
            Locale.ROOT,
            "%nPeak connections (AppendRows streams open at once, counted by the BigQuery emulator): %,d;"
                + " opened over the run: %,d.%n%n",
            a.peakConnections(),
            a.emulator()
                .map(EmulatorStatus::connectionsOpened)
                .orElse((long) c.appendClientsCreated())));

    md.append(deadLetters(c));
    md.append("Raw data beside this report: `")
        .append(RunFiles.TIMELINE)
        .append("` (per minute, the view's columns), `")
        .append(RunFiles.TIMELINE_PER_SECOND)
        .append("`, `")
        .append(RunFiles.CONSUMER_SAMPLES)
        .append("`, `")
        .append(RunFiles.CONSUMER_RESULT)
        .append("`; every number above is computed from them (`")
        .append(RunFiles.SUMMARY)
        .append("`).\n");
    return md.toString();
  }

  /**
   * The first dead letters as the dead-letter table holds them: stage, reason and the payload's
   * first bytes (printable ASCII as is, anything else as \\xNN, so an encoding problem is visible).
   */
  static String deadLetters(ConsumerResult c) {
    StringBuilder md = new StringBuilder();
    if (c.deadLetterWriteFailures() > 0) {
      md.append(
          String.format(
              Locale.ROOT,
              "**%,d dead letter(s) could not be written to the dead-letter table**: those"
                  + " messages are neither written nor kept (the consumer's log has each reason).%n%n",
              c.deadLetterWriteFailures()));
    }
    List<DeadLetterSample> samples =
        c.deadLetterSamples() == null ? List.of() : c.deadLetterSamples();
    List<String> errors = c.deadLetterErrors() == null ? List.of() : c.deadLetterErrors();
    if (samples.isEmpty() && errors.isEmpty()) {
      return md.toString();
    }
    md.append("## Dead letters\n\n");
    if (samples.isEmpty()) {
      md.append("First reasons recorded in the dead-letter table:\n\n");
      errors.forEach(e -> md.append("- ").append(e.replace('\n', ' ')).append('\n'));
      return md.append('\n').toString();
    }
    md.append(
        String.format(
            Locale.ROOT,
            "%,d dead-lettered; the first %d as the dead-letter table holds them (its"
                + " `payload` column is the message byte for byte):%n%n",
            c.deadLettered(),
            samples.size()));
    md.append(
        "| Stage | Event index | Bytes | Reason | Payload starts |\n|---|---:|---:|---|---|\n");
    for (DeadLetterSample d : samples) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | `%s` |%n",
              d.stage(),
              d.eventIndex() == null ? "-" : d.eventIndex().toString(),
              d.payloadBytes() == null ? "-" : String.format(Locale.ROOT, "%,d", d.payloadBytes()),
              String.valueOf(d.error()).replace('\n', ' ').replace("|", "\\|"),
              preview(d.payload(), 32)));
    }
    return md.append('\n').toString();
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

  private static void row(StringBuilder md, String metric, String value, String how) {
    md.append("| ")
        .append(metric)
        .append(" | ")
        .append(value)
        .append(" | ")
        .append(how)
        .append(" |\n");
  }

  private static void row2(StringBuilder md, String name, String value) {
    md.append("| ").append(name).append(" | ").append(value).append(" |\n");
  }

  private static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  private static String f0(double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String f1(double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String f2(double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.2f", v);
  }

  private static String pct(double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f%%", 100 * v);
  }

  /** The faults asked for, each with how often it fired; one that never fired is a warning. */
  private static void faults(StringBuilder md, RoundAnalysis a) {
    List<FaultCount> faults =
        a.emulator()
            .map(e -> e.faults() == null ? List.<FaultCount>of() : e.faults())
            .orElse(List.of());
    if (faults.isEmpty()) {
      return;
    }
    md.append("Faults asked of the BigQuery emulator (all jobs together):\n\n")
        .append("| Fault | A fraction of | Of those the run had | Fired |\n")
        .append("|:---|:---|---:|---:|\n");
    for (FaultCount f : faults) {
      md.append(
          String.format(
              Locale.ROOT,
              "| `%s` | %s | %,d | %,d |%n",
              f.fault(),
              f.fraction() == null ? "(fires once)" : f.of(),
              f.outOf(),
              f.fired()));
    }
    md.append('\n');
    for (FaultCount f : faults) {
      if (f.warning() != null) {
        md.append("**Warning:** ").append(f.warning()).append(".\n\n");
      }
    }
  }
}
