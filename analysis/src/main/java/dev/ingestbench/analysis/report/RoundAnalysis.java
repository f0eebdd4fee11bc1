package dev.ingestbench.analysis.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.model.Timeline;
import dev.ingestbench.analysis.model.TimelineRow;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.phases.SteadyStateDetector;
import dev.ingestbench.analysis.source.CpuSamplesCsv;
import dev.ingestbench.analysis.source.ProcessCpuCsv;
import dev.ingestbench.analysis.source.TimelineCsv;
import dev.ingestbench.analysis.stats.Estimate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything a local round's report says, computed from the raw files the round left: the per-second
 * write timeline, the consumer's per-second CPU samples, and the publisher and consumer results.
 */
public record RoundAnalysis(
    JsonNode round,
    JsonNode consumer,
    List<JsonNode> publishers,
    Timeline perSecond,
    Timeline perMinute,
    List<Phase> phases,
    List<CpuSamplesCsv.Sample> cpu,
    Optional<Phase> steady,
    Estimate steadyRowsPerSecond,
    Estimate steadyMbPerSecond,
    double steadyCpuUtilisation,
    double steadyCpuSeconds,
    int vcpus,
    List<ProcessCpuCsv.Sample> processCpu) {

  private static final ObjectMapper JSON = new ObjectMapper();

  public static RoundAnalysis of(Path dir) throws IOException {
    // A consumer-only run (ingestbench consume --localOutputDir) has no round or publisher files.
    JsonNode round =
        Files.exists(dir.resolve(RoundFiles.ROUND))
            ? readJson(dir.resolve(RoundFiles.ROUND))
            : JSON.createObjectNode();
    JsonNode consumer = readJson(dir.resolve(RoundFiles.CONSUMER_RESULT));
    List<JsonNode> publishers = new ArrayList<>();
    for (String name : List.of(RoundFiles.PUBLISHER_BACKLOG, RoundFiles.PUBLISHER_LIVE)) {
      if (Files.exists(dir.resolve(name))) {
        publishers.add(readJson(dir.resolve(name)));
      }
    }
    List<TimelineRow> rows = TimelineCsv.read(dir.resolve(RoundFiles.TIMELINE_PER_SECOND));
    Timeline perSecond = Timeline.of(rows, 1, Timeline.dataTables());
    Timeline perMinute = Timeline.of(rows, 60, Timeline.dataTables());
    List<Phase> phases = new SteadyStateDetector().detect(perSecond);
    List<CpuSamplesCsv.Sample> cpu = CpuSamplesCsv.read(dir.resolve(RoundFiles.CONSUMER_SAMPLES));
    int vcpus = cpu.isEmpty() ? consumer.path("vcpus").asInt(1) : cpu.get(0).vcpus();
    Optional<Phase> steady = phases.stream().filter(p -> p.name().equals("steady")).findFirst();
    List<Bucket> window = steady.map(p -> perSecond.slice(p.fromIndex(), p.toIndex())).orElse(List.of());
    Estimate rowsPerSecond = Estimate.of(window.stream().map(Bucket::rowsPerSecond).toList());
    Estimate mbPerSecond = Estimate.of(window.stream().map(Bucket::mbPerSecond).toList());
    double cpuSeconds = 0;
    long cpuSampleSeconds = 0;
    if (steady.isPresent()) {
      for (CpuSamplesCsv.Sample s : cpu) {
        // A sample stamped at second t measured the CPU used during [t-1, t).
        long covered = s.second().getEpochSecond() - 1;
        if (covered >= steady.get().start().getEpochSecond() && covered < steady.get().end().getEpochSecond()) {
          cpuSeconds += s.cpuSeconds();
          cpuSampleSeconds++;
        }
      }
    }
    double utilisation = cpuSampleSeconds == 0 ? Double.NaN : cpuSeconds / (vcpus * (double) cpuSampleSeconds);
    return new RoundAnalysis(
        round, consumer, publishers, perSecond, perMinute, phases, cpu, steady, rowsPerSecond,
        mbPerSecond, utilisation, cpuSeconds, vcpus, ProcessCpuCsv.read(dir.resolve(RoundFiles.PROCESSES_CPU)));
  }

  /**
   * Messages the publishers had acknowledged by Pub/Sub; for a consumer-only run, the messages it
   * expected (the synthetic source's count).
   */
  public long published() {
    if (publishers.isEmpty()) {
      return consumer.path("expected").asLong();
    }
    return publishers.stream().mapToLong(p -> p.path("published").asLong()).sum();
  }

  public long publishFailures() {
    return publishers.stream().mapToLong(p -> p.path("publish_failures").asLong()).sum();
  }

  /** Rows per CPU-second of the consumer process over the steady state. */
  public double rowsPerCpuSecond() {
    if (steady.isEmpty() || steadyCpuSeconds == 0) {
      return Double.NaN;
    }
    long rows = perSecond.slice(steady.get().fromIndex(), steady.get().toIndex()).stream().mapToLong(Bucket::rows).sum();
    return rows / steadyCpuSeconds;
  }

  /** Average over the whole active window (first to last row written). */
  public double activeRowsPerSecond() {
    long seconds = phases.stream().mapToLong(Phase::buckets).sum();
    return seconds == 0 ? Double.NaN : perSecond.totalRows() / (double) seconds;
  }

  public long activeSeconds() {
    return phases.stream().mapToLong(Phase::buckets).sum();
  }

  /**
   * CPU-seconds each process of the round used in [from, to), by the seconds its samples cover, in
   * the order the processes first appear.
   */
  public java.util.Map<String, Double> processCpuSeconds(java.time.Instant from, java.time.Instant to) {
    java.util.Map<String, Double> totals = new java.util.LinkedHashMap<>();
    for (ProcessCpuCsv.Sample s : processCpu) {
      long covered = s.second().getEpochSecond() - 1;
      if (covered >= from.getEpochSecond() && covered < to.getEpochSecond()) {
        totals.merge(s.process(), s.cpuSeconds(), Double::sum);
      }
    }
    return totals;
  }

  /** Most heap the consumer had in use at any per-second sample (after GC or not). */
  public long peakConsumerHeapBytes() {
    return cpu.stream().mapToLong(CpuSamplesCsv.Sample::heapUsedBytes).max().orElse(0);
  }

  public long lost() {
    return Math.max(0, published() - consumer.path("accounted_for").asLong());
  }

  private static JsonNode readJson(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException(file + " is missing: is this the output directory of a round?");
    }
    return JSON.readTree(file.toFile());
  }
}
