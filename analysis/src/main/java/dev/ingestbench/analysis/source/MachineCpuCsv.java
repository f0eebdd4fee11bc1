package dev.ingestbench.analysis.source;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.ingestbench.contracts.MachineCpuColumns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A run's per-second CPU of the whole machine ({@code machine_cpu.csv}); optional: runs recorded
 * before it was written have none, and then only the run's own processes are known.
 */
public final class MachineCpuCsv {
  /** CPU-seconds the machine used in the second before {@code second}. */
  public record Sample(Instant second, double busy, double steal, double total) {}

  private MachineCpuCsv() {}

  public static List<Sample> read(Path file) throws IOException {
    List<Sample> samples = new ArrayList<>();
    if (!Files.isRegularFile(file)) {
      return samples;
    }
    try (MappingIterator<Map<String, String>> it =
        new CsvMapper()
            .readerFor(Map.class)
            .with(CsvSchema.emptySchema().withHeader())
            .readValues(file.toFile())) {
      while (it.hasNextValue()) {
        Map<String, String> r = it.nextValue();
        samples.add(
            new Sample(
                Instant.ofEpochSecond(Long.parseLong(r.get(MachineCpuColumns.EPOCH_SECOND))),
                Double.parseDouble(r.get(MachineCpuColumns.BUSY_CPU_SECONDS)),
                Double.parseDouble(r.get(MachineCpuColumns.STEAL_CPU_SECONDS)),
                Double.parseDouble(r.get(MachineCpuColumns.TOTAL_CPU_SECONDS))));
      }
    } catch (RuntimeException e) {
      throw new IOException(
          file + " is not " + String.join(",", MachineCpuColumns.ALL) + " rows: " + e.getMessage());
    }
    return samples;
  }
}
