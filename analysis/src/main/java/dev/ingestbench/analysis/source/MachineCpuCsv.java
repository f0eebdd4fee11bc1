package dev.ingestbench.analysis.source;

import dev.ingestbench.contracts.MachineCpuColumns;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A run's per-second CPU of the whole machine ({@code machine_cpu.csv}); optional: runs recorded
 * before it was written have none, and then only the run's own processes are known.
 */
public final class MachineCpuCsv {
  /** CPU-seconds the machine used in the second before {@code second}. */
  public record Sample(Instant second, double busy, double steal, double total) {}

  private MachineCpuCsv() {}

  public static List<Sample> read(Path file) throws IOException {
    return CsvRows.read(
        file,
        String.join(",", MachineCpuColumns.ALL),
        r ->
            new Sample(
                Instant.ofEpochSecond(Long.parseLong(r.get(MachineCpuColumns.EPOCH_SECOND))),
                Double.parseDouble(r.get(MachineCpuColumns.BUSY_CPU_SECONDS)),
                Double.parseDouble(r.get(MachineCpuColumns.STEAL_CPU_SECONDS)),
                Double.parseDouble(r.get(MachineCpuColumns.TOTAL_CPU_SECONDS))));
  }
}
