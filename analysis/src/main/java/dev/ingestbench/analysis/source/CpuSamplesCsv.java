package dev.ingestbench.analysis.source;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.ingestbench.contracts.ConsumerSampleColumns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads a local run's per-second consumer samples (CPU seconds, vCPUs, append clients, heap). */
public final class CpuSamplesCsv {
  /** One second of the consumer process. */
  public record Sample(
      Instant second, double cpuSeconds, int vcpus, int openAppendClients, long heapUsedBytes) {}

  private CpuSamplesCsv() {}

  public static List<Sample> read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException("CPU samples file " + file + " does not exist");
    }
    List<Sample> samples = new ArrayList<>();
    try (MappingIterator<Map<String, String>> it =
        new CsvMapper()
            .readerFor(Map.class)
            .with(CsvSchema.emptySchema().withHeader())
            .readValues(file.toFile())) {
      while (it.hasNextValue()) {
        Map<String, String> r = it.nextValue();
        try {
          samples.add(
              new Sample(
                  Instant.ofEpochSecond(Long.parseLong(r.get(ConsumerSampleColumns.EPOCH_SECOND))),
                  Double.parseDouble(r.get(ConsumerSampleColumns.CPU_SECONDS)),
                  Integer.parseInt(r.get(ConsumerSampleColumns.VCPUS)),
                  Integer.parseInt(r.getOrDefault(ConsumerSampleColumns.OPEN_APPEND_CLIENTS, "0")),
                  Long.parseLong(r.getOrDefault(ConsumerSampleColumns.HEAP_USED_BYTES, "0"))));
        } catch (RuntimeException e) {
          throw new IOException(
              file + ": sample " + r + " is not numbers (" + e.getMessage() + ")");
        }
      }
    }
    return samples;
  }
}
