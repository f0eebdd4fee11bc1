package dev.ingestbench.analysis.source;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.ingestbench.contracts.ProcessCpuColumns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A round's per-second CPU of every process it started ({@code processes_cpu.csv}); optional. */
public final class ProcessCpuCsv {
  /** CPU-seconds {@code process} used in the second before {@code second}. */
  public record Sample(Instant second, String process, double cpuSeconds) {}

  private ProcessCpuCsv() {}

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
                Instant.ofEpochSecond(Long.parseLong(r.get(ProcessCpuColumns.EPOCH_SECOND))),
                r.get(ProcessCpuColumns.PROCESS),
                Double.parseDouble(r.get(ProcessCpuColumns.CPU_SECONDS))));
      }
    } catch (RuntimeException e) {
      throw new IOException(
          file + " is not epoch_second,process,cpu_seconds rows: " + e.getMessage());
    }
    return samples;
  }
}
