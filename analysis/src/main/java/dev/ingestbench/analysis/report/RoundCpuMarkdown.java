package dev.ingestbench.analysis.report;

import static dev.ingestbench.analysis.document.Numbers.count;
import static dev.ingestbench.analysis.document.Numbers.f1;
import static dev.ingestbench.analysis.document.Numbers.pct;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.source.CpuSamplesCsv;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.RunFiles;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * The round report's "CPU utilisation": the consumer's CPU per minute, every process's share of the
 * machine, the peak heap and connections.
 */
final class RoundCpuMarkdown {
  private static final DateTimeFormatter HM =
      DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

  private RoundCpuMarkdown() {}

  /** The consumer's CPU per minute, every process's share, peak heap and connections. */
  static void write(Document doc, RoundAnalysis a) {
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
}
