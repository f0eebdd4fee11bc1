package dev.ingestbench.analysis.source;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads CPU per minute for {@code analyze --cpu}: vCPU-seconds used (Dataflow's {@code
 * job/total_vcpu_time} as per-minute deltas; value column {@code vcpu_seconds}, {@code
 * delta_vcpu_seconds} or {@code value}) or utilisation (Cloud Monitoring's {@code
 * instance/cpu/utilization}; column {@code utilization}, {@code utilisation} or {@code
 * cpu_utilization}, as a fraction, or in % when a value exceeds 1.5), with a time column ({@code
 * minute}, {@code start_timestamp} or {@code timestamp}). One file per job: vCPU-seconds are summed
 * over the files, utilisations averaged and turned into vCPU-seconds with the jobs' vCPUs.
 */
public final class VcpuSecondsCsv {
  private VcpuSecondsCsv() {}

  /**
   * vCPU-seconds per minute of every file (one per job); {@code vcpus} (all jobs') turns
   * utilisation into vCPU-seconds.
   */
  public static Map<Instant, Double> readAll(List<Path> files, int vcpus) throws IOException {
    Map<Instant, Double> seconds = new TreeMap<>();
    Map<Instant, double[]> utilisation = new TreeMap<>();
    for (Path file : files) {
      if (Files.isRegularFile(file)) {
        Utf8Text.require(file);
      }
      if (isUtilisation(file)) {
        Map<Instant, Double> u = read(file);
        boolean percent = u.values().stream().anyMatch(v -> v > 1.5);
        u.forEach(
            (m, v) -> {
              double[] sum = utilisation.computeIfAbsent(m, k -> new double[2]);
              sum[0] += percent ? v / 100 : v;
              sum[1]++;
            });
      } else {
        read(file).forEach((m, v) -> seconds.merge(m, v, Double::sum));
      }
    }
    if (!utilisation.isEmpty() && !seconds.isEmpty()) {
      throw new IllegalArgumentException(
          "--cpu files mix vCPU-seconds and utilisation: give one kind (all jobs alike)");
    }
    if (!utilisation.isEmpty()) {
      if (vcpus <= 0) {
        throw new IllegalArgumentException(
            "--cpu with utilisation needs --vcpus N (all jobs' vCPUs) to turn it into vCPU-seconds");
      }
      utilisation.forEach((m, sum) -> seconds.put(m, sum[0] / sum[1] * vcpus * 60));
    }
    return seconds;
  }

  private static final String[] UTILISATION = {"utilization", "utilisation", "cpu_utilization"};

  private static boolean isUtilisation(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException("--cpu file " + file + " does not exist");
    }
    try (BufferedReader r = Files.newBufferedReader(file)) {
      String header = r.readLine();
      return header != null
          && Arrays.stream(header.split(","))
              .map(h -> h.trim().replace("\"", ""))
              .anyMatch(h -> Arrays.asList(UTILISATION).contains(h));
    }
  }

  /** Values per minute of one file (vCPU-seconds, or utilisation as written). */
  public static Map<Instant, Double> read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException("--cpu file " + file + " does not exist");
    }
    Map<Instant, Double> perMinute = new TreeMap<>();
    try (MappingIterator<Map<String, String>> it =
        new CsvMapper()
            .readerFor(Map.class)
            .with(CsvSchema.emptySchema().withHeader())
            .readValues(file.toFile())) {
      int line = 1;
      while (it.hasNextValue()) {
        Map<String, String> r = it.nextValue();
        line++;
        String time = CsvRows.first(r, "minute", "start_timestamp", "timestamp");
        String value =
            CsvRows.first(
                r,
                "vcpu_seconds",
                "delta_vcpu_seconds",
                "value",
                UTILISATION[0],
                UTILISATION[1],
                UTILISATION[2]);
        if (time == null || value == null) {
          throw new IOException(
              file
                  + " needs a time column (minute, start_timestamp or timestamp) and a value"
                  + " column (vcpu_seconds, delta_vcpu_seconds, value, or utilization); it has "
                  + r.keySet());
        }
        try {
          perMinute.merge(
              TimelineCsv.parseTimestamp(time, file, line), Double.parseDouble(value), Double::sum);
        } catch (NumberFormatException e) {
          throw new IOException(file + " line " + line + ": '" + value + "' is not a number");
        }
      }
    }
    return perMinute;
  }
}
