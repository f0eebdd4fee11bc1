package dev.ingestbench.analysis.source;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads vCPU-seconds used per minute (Dataflow's {@code job/total_vcpu_time} as per-minute deltas):
 * a CSV with a time column ({@code minute}, {@code start_timestamp} or {@code timestamp}) and a value
 * column ({@code vcpu_seconds}, {@code delta_vcpu_seconds} or {@code value}).
 */
public final class VcpuSecondsCsv {
  private VcpuSecondsCsv() {}

  /** vCPU-seconds keyed by the minute they were used in. */
  public static Map<Instant, Double> read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException("--cpu file " + file + " does not exist");
    }
    Map<Instant, Double> perMinute = new TreeMap<>();
    try (MappingIterator<Map<String, String>> it =
        new CsvMapper().readerFor(Map.class).with(CsvSchema.emptySchema().withHeader()).readValues(file.toFile())) {
      int line = 1;
      while (it.hasNextValue()) {
        Map<String, String> r = it.nextValue();
        line++;
        String time = first(r, "minute", "start_timestamp", "timestamp");
        String value = first(r, "vcpu_seconds", "delta_vcpu_seconds", "value");
        if (time == null || value == null) {
          throw new IOException(file + " needs a time column (minute, start_timestamp or timestamp) and a value"
              + " column (vcpu_seconds, delta_vcpu_seconds or value); it has " + r.keySet());
        }
        try {
          perMinute.merge(TimelineCsv.parseTimestamp(time, file, line), Double.parseDouble(value), Double::sum);
        } catch (NumberFormatException e) {
          throw new IOException(file + " line " + line + ": vCPU-seconds '" + value + "' is not a number");
        }
      }
    }
    return perMinute;
  }

  private static String first(Map<String, String> row, String... names) {
    for (String name : names) {
      if (row.containsKey(name)) {
        return row.get(name);
      }
    }
    return null;
  }
}
