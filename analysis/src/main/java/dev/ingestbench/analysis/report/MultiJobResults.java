package dev.ingestbench.analysis.report;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.ConsumerSampleColumns;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The results of a multi-job round taken together: every job's consumer result and per-second
 * samples summed into the round's directory, where the shared write timeline already is, so the
 * round's report covers all jobs while each job's directory keeps its own report.
 *
 * <p>Counts add up (each job reads every message, so a round of J jobs expects J times the
 * published messages); latency percentiles cannot be added, so the combined result has none and the
 * report points at each job's.
 */
public final class MultiJobResults {
  private MultiJobResults() {}

  public static void combine(Path roundDir, List<Path> jobDirs) throws IOException {
    List<ConsumerResult> jobs = new ArrayList<>();
    for (Path dir : jobDirs) {
      jobs.add(RunJson.read(dir.resolve(RunFiles.CONSUMER_RESULT), ConsumerResult.class));
    }
    Path emulator = roundDir.resolve(RunFiles.BIGQUERY_EMULATOR);
    OptionalInt peakConnections =
        Files.exists(emulator)
            ? OptionalInt.of(RunJson.read(emulator, EmulatorStatus.class).peakConnections())
            : OptionalInt.empty();
    RunJson.write(roundDir.resolve(RunFiles.CONSUMER_RESULT), sum(jobs, peakConnections));
    writeSamples(roundDir.resolve(RunFiles.CONSUMER_SAMPLES), jobDirs);
  }

  /**
   * Sums the jobs' results. Peaks do not add up (jobs peak at different seconds), so the combined
   * peak is the emulator's own count across all jobs; without its file, the sum of the jobs' peaks
   * (an upper bound).
   */
  static ConsumerResult sum(List<ConsumerResult> jobs, OptionalInt peakConnections) {
    ConsumerResult first = jobs.get(0);
    return new ConsumerResult(
        first.runner(),
        first.source(),
        first.writeMethod(),
        first.rowFormat(),
        first.rowEncoding(),
        first.destinationTables(),
        first.useStorageApiConnectionPool(),
        first.numStorageWriteApiStreams(),
        first.triggeringFrequencySec(),
        jobs.stream()
            .map(ConsumerResult::startedAt)
            .min(String::compareTo)
            .orElse(first.startedAt()),
        jobs.stream().mapToDouble(ConsumerResult::seconds).max().orElse(0),
        jobs.stream().map(ConsumerResult::stopReason).distinct().collect(Collectors.joining("; ")),
        jobs.stream().mapToLong(ConsumerResult::expected).sum(),
        jobs.stream().mapToLong(ConsumerResult::rowsWritten).sum(),
        jobs.stream().mapToLong(ConsumerResult::distinctMessageIds).sum(),
        jobs.stream().mapToLong(ConsumerResult::duplicates).sum(),
        jobs.stream().mapToLong(ConsumerResult::unindexedRows).sum(),
        jobs.stream().mapToLong(ConsumerResult::deadLettered).sum(),
        jobs.stream().mapToLong(ConsumerResult::accountedFor).sum(),
        null,
        null,
        null,
        null,
        first.deadLetterErrors(),
        jobs.stream().mapToDouble(ConsumerResult::cpuSeconds).sum(),
        first.vcpus(),
        peakConnections.orElseGet(
            () -> jobs.stream().mapToInt(ConsumerResult::peakAppendClients).sum()),
        jobs.stream().mapToInt(ConsumerResult::appendClientsCreated).sum(),
        first.maxHeapBytes(),
        first.deadLetterSamples(),
        jobs.stream().mapToLong(ConsumerResult::deadLetterWriteFailures).sum(),
        first.runId(),
        jobs.stream().mapToLong(ConsumerResult::foreignRows).sum(),
        jobs.stream().mapToLong(ConsumerResult::mismatchedRows).sum(),
        jobs.stream()
            .flatMap(j -> j.mismatches() == null ? Stream.<String>empty() : j.mismatches().stream())
            .limit(10)
            .toList(),
        null, // percentiles of several jobs do not add up: each job's own summary has its own
        jobs.stream().mapToLong(ConsumerResult::sourceDuplicates).sum(),
        jobs.stream().mapToLong(ConsumerResult::unindexedDeadLetters).sum(),
        first.tableSkew(),
        jobs.stream().mapToLong(ConsumerResult::misroutedRows).sum(),
        jobs.stream()
            .flatMap(j -> j.misroutes() == null ? Stream.<String>empty() : j.misroutes().stream())
            .limit(10)
            .toList(),
        jobs.stream().mapToLong(ConsumerResult::routeCheckedRows).sum());
  }

  /**
   * Per second: CPU (and its JIT share), rows, connections and heap summed over the jobs (vCPUs:
   * the machine's; a sum where every job recorded the figure, else empty). The checkpoint columns
   * stay empty: each job's checkpoints are its own (its directory's samples), and a sum of their
   * counts and last durations would describe no checkpoint.
   */
  private static void writeSamples(Path file, List<Path> jobDirs) throws IOException {
    TreeMap<Long, double[]> bySecond = new TreeMap<>();
    List<String> columns = ConsumerSampleColumns.ALL;
    for (Path dir : jobDirs) {
      try (MappingIterator<Map<String, String>> it =
          new CsvMapper()
              .readerFor(Map.class)
              .with(CsvSchema.emptySchema().withHeader())
              .readValues(dir.resolve(RunFiles.CONSUMER_SAMPLES).toFile())) {
        while (it.hasNextValue()) {
          Map<String, String> row = it.nextValue();
          double[] sums =
              bySecond.computeIfAbsent(
                  Long.parseLong(row.get(ConsumerSampleColumns.EPOCH_SECOND)),
                  s -> new double[columns.size()]);
          for (int c = 1; c < columns.size(); c++) {
            if (!ConsumerSampleColumns.SUMMED.contains(columns.get(c))) {
              continue;
            }
            // A file from before the JIT's seconds were kept has no such column: unknown, not 0.
            String text =
                row.getOrDefault(
                    columns.get(c),
                    columns.get(c).equals(ConsumerSampleColumns.JIT_CPU_SECONDS) ? "" : "0");
            // Empty where a job did not record it (JIT seconds off Linux): the sum is unknown too.
            double value = text.isEmpty() ? Double.NaN : Double.parseDouble(text);
            sums[c] = columns.get(c).equals(ConsumerSampleColumns.VCPUS) ? value : sums[c] + value;
          }
        }
      }
    }
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(String.join(",", columns) + "\n");
      for (Map.Entry<Long, double[]> second : bySecond.entrySet()) {
        StringBuilder line = new StringBuilder().append(second.getKey());
        double[] sums = second.getValue();
        for (int c = 1; c < columns.size(); c++) {
          line.append(',');
          if (!ConsumerSampleColumns.SUMMED.contains(columns.get(c))) {
            continue;
          }
          if (Double.isNaN(sums[c])) {
            continue;
          }
          line.append(
              columns.get(c).equals(ConsumerSampleColumns.CPU_SECONDS)
                      || columns.get(c).equals(ConsumerSampleColumns.JIT_CPU_SECONDS)
                  ? String.format(Locale.ROOT, "%.4f", sums[c])
                  : Long.toString(Math.round(sums[c])));
        }
        out.write(line + "\n");
      }
    }
  }
}
