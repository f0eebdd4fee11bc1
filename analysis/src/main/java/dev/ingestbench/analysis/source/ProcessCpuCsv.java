package dev.ingestbench.analysis.source;

import dev.ingestbench.contracts.ProcessCpuColumns;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/** A round's per-second CPU of every process it started ({@code processes_cpu.csv}); optional. */
public final class ProcessCpuCsv {
  /** CPU-seconds {@code process} used in the second before {@code second}. */
  public record Sample(Instant second, String process, double cpuSeconds) {}

  private ProcessCpuCsv() {}

  public static List<Sample> read(Path file) throws IOException {
    return CsvRows.read(
        file,
        String.join(",", ProcessCpuColumns.ALL),
        r ->
            new Sample(
                Instant.ofEpochSecond(Long.parseLong(r.get(ProcessCpuColumns.EPOCH_SECOND))),
                r.get(ProcessCpuColumns.PROCESS),
                Double.parseDouble(r.get(ProcessCpuColumns.CPU_SECONDS))));
  }
}
