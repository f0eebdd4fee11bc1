package dev.ingestbench.consumer.local;

import com.sun.management.OperatingSystemMXBean;
import dev.ingestbench.contracts.ConsumerSampleColumns;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.WholeFile;
import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Once a second: this JVM's CPU time (the local stand-in for Dataflow's {@code
 * job/total_vcpu_time}), rows of this job visible in the BigQuery emulator, its open connections,
 * heap in use and the embedded Flink's checkpoints ({@link CheckpointReporter}).
 */
final class ResourceSampler {
  record Sample(
      long epochSecond,
      double cpuSeconds,
      int vcpus,
      long rowsVisible,
      long accountedFor,
      int openAppendClients,
      long heapUsedBytes,
      CheckpointReporter.@Nullable Checkpoints checkpoints,
      double jitCpuSeconds) {}

  private final OperatingSystemMXBean os =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
  private final EmulatorView emulator;
  private final List<Sample> samples = new ArrayList<>();
  private final CompilerThreadsCpu jit = new CompilerThreadsCpu();
  private final long startCpuNanos;
  private long lastCpuNanos;
  private EmulatorStatus.Job lastJob;

  ResourceSampler(EmulatorView emulator) {
    this.emulator = emulator;
    this.startCpuNanos = os.getProcessCpuTime();
    this.lastCpuNanos = startCpuNanos;
    jit.sinceLast(); // from here on, as the CPU is
  }

  Sample sample() throws IOException {
    long cpu = os.getProcessCpuTime();
    double jitSeconds =
        jit.sinceLast(); // at the same moment as the CPU, before the emulator's call
    EmulatorStatus.Job rows = emulator.job();
    lastJob = rows;
    Sample sample =
        new Sample(
            Instant.now().getEpochSecond(),
            (cpu - lastCpuNanos) / 1e9,
            Runtime.getRuntime().availableProcessors(),
            rows.rowsWritten(),
            rows.accountedFor(),
            rows.openConnections(),
            memory.getHeapMemoryUsage().getUsed(),
            CheckpointReporter.now(),
            jitSeconds);
    lastCpuNanos = cpu;
    samples.add(sample);
    return sample;
  }

  /** The emulator's last answer about this job; null before the first sample. */
  EmulatorStatus.Job lastJob() {
    return lastJob;
  }

  double totalCpuSeconds() {
    return (os.getProcessCpuTime() - startCpuNanos) / 1e9;
  }

  /** One row a second: the CPU series the analysis turns into utilisation. */
  void writeCsv(Path file) throws IOException {
    // Whole or not at all: the consumer writes it as it stops, perhaps as its JVM is going away.
    WholeFile.write(file, this::writeSamples);
  }

  private void writeSamples(Writer out) throws IOException {
    out.write(String.join(",", ConsumerSampleColumns.ALL) + "\n");
    // In ConsumerSampleColumns.ALL's order.
    for (Sample s : samples) {
      out.write(
          String.format(
              Locale.ROOT,
              "%d,%.4f,%d,%d,%d,%d,%d,%s,%s,%s%n",
              s.epochSecond(),
              s.cpuSeconds(),
              s.vcpus(),
              s.rowsVisible(),
              s.accountedFor(),
              s.openAppendClients(),
              s.heapUsedBytes(),
              s.checkpoints() == null ? "" : s.checkpoints().completed(),
              s.checkpoints() == null ? "" : s.checkpoints().lastDurationMs(),
              Double.isNaN(s.jitCpuSeconds())
                  ? ""
                  : String.format(Locale.ROOT, "%.4f", s.jitCpuSeconds())));
    }
  }
}
