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
  /**
   * One second of the consumer process.
   *
   * @param checkpointsCompleted the embedded Flink's checkpoints completed by then; -1 where not
   *     recorded (another runner, a run from before it was kept)
   * @param checkpointLastMs how long the last of them took; -1 where not recorded
   * @param jitCpuSeconds of {@code cpuSeconds}, the JIT compiler threads'; NaN where not recorded
   */
  public record Sample(
      Instant second,
      double cpuSeconds,
      int vcpus,
      int openAppendClients,
      long heapUsedBytes,
      long checkpointsCompleted,
      long checkpointLastMs,
      double jitCpuSeconds) {}

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
                  Long.parseLong(r.getOrDefault(ConsumerSampleColumns.HEAP_USED_BYTES, "0")),
                  orMinusOne(r.get(ConsumerSampleColumns.CHECKPOINTS_COMPLETED)),
                  orMinusOne(r.get(ConsumerSampleColumns.CHECKPOINT_LAST_MS)),
                  orNaN(r.get(ConsumerSampleColumns.JIT_CPU_SECONDS))));
        } catch (RuntimeException e) {
          throw new IOException(
              file + ": sample " + r + " is not numbers (" + e.getMessage() + ")");
        }
      }
    }
    return samples;
  }

  /** An optional column's seconds: NaN where the column, or this second's value, is missing. */
  private static double orNaN(String value) {
    return value == null || value.isEmpty() ? Double.NaN : Double.parseDouble(value);
  }

  /** An optional column's number: -1 where the column, or this second's value, is missing. */
  private static long orMinusOne(String value) {
    return value == null || value.isEmpty() ? -1 : Long.parseLong(value);
  }
}
