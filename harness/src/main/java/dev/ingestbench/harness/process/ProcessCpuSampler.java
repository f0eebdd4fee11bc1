package dev.ingestbench.harness.process;

import dev.ingestbench.contracts.MachineCpuColumns;
import dev.ingestbench.contracts.ProcStat;
import dev.ingestbench.contracts.ProcessCpuColumns;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.WholeFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Once a second, the CPU time of every process a round started (emulator, publishers, consumer),
 * read from {@code /proc/PID/stat}, and of the whole machine, from {@code /proc/stat}: what shares
 * the machine with the consumer, its own or anyone else's, measured rather than assumed. Writes
 * {@code processes_cpu.csv} and {@code machine_cpu.csv}; on systems without {@code /proc} they hold
 * no rows.
 */
public final class ProcessCpuSampler implements AutoCloseable {

  private final Map<String, Long> pids = new ConcurrentHashMap<>();
  private final Map<String, Double> last = new ConcurrentHashMap<>();
  private final List<String> lines = new ArrayList<>();
  private final List<String> machineLines = new ArrayList<>();
  private MachineCpu machineBefore = MachineCpu.now();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "process-cpu-sampler");
            t.setDaemon(true);
            return t;
          });
  private final Path out;

  public ProcessCpuSampler(Path out) {
    this.out = out;
    watch(ProcessCpuColumns.SELF, ProcessHandle.current().pid());
    timer.scheduleAtFixedRate(this::sample, 1, 1, TimeUnit.SECONDS);
  }

  /** The names it samples now, each with its pid. */
  synchronized Map<String, Long> watched() {
    return Map.copyOf(pids);
  }

  /**
   * Samples {@code pid} as {@code name}; a process already watched under another name is renamed,
   * never counted twice (the tool's own JVM, watched from the start, publishes the live messages).
   */
  public synchronized void watch(String name, long pid) {
    for (String old : List.copyOf(pids.keySet())) {
      if (pids.get(old) == pid && !old.equals(name)) {
        pids.remove(old);
        // Its CPU so far moves with it, so the second after the rename is counted too.
        Double previous = last.remove(old);
        if (previous != null) {
          last.put(name, previous);
        }
      }
    }
    Long before = pids.put(name, pid);
    if (before != null && before != pid) {
      // Another process under a known name (a job started again): its CPU starts from its own.
      last.remove(name);
    }
  }

  private synchronized void sample() {
    long second = Instant.now().getEpochSecond();
    MachineCpu machine = MachineCpu.now();
    if (machine.known() && machineBefore.known() && machine.total() > machineBefore.total()) {
      long steal = machine.steal() - machineBefore.steal();
      machineLines.add(
          String.format(
              Locale.ROOT,
              "%d,%.2f,%.2f,%.2f",
              second,
              (machine.busy() - machineBefore.busy() - steal) / ProcStat.TICKS_PER_SECOND,
              steal / ProcStat.TICKS_PER_SECOND,
              (machine.total() - machineBefore.total()) / ProcStat.TICKS_PER_SECOND));
    }
    machineBefore = machine;
    pids.forEach(
        (name, pid) -> {
          double total = cpuSeconds(pid);
          if (total < 0) {
            return; // exited, or no /proc
          }
          Double previous = last.put(name, total);
          if (previous != null) {
            lines.add(
                String.format(
                    Locale.ROOT, "%d,%s,%.2f", second, name, Math.max(0, total - previous)));
          }
        });
  }

  /** utime + stime of a process in seconds, or -1 when it cannot be read. */
  public static double cpuSeconds(long pid) {
    try {
      return ProcStat.parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat")))
          .cpuSeconds();
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  @Override
  public synchronized void close() throws IOException {
    timer.shutdownNow();
    write(out.resolve(RunFiles.PROCESSES_CPU), ProcessCpuColumns.ALL, lines);
    write(out.resolve(RunFiles.MACHINE_CPU), MachineCpuColumns.ALL, machineLines);
  }

  /**
   * Writes {@code file} whole or not at all ({@link WholeFile}): a run stopped by a signal closes
   * this while the JVM is going away, and a file cut short there (an empty one, seen in a resumed
   * scenario's report) would be read as the segment's figures.
   */
  private static void write(Path file, List<String> columns, List<String> rows) throws IOException {
    WholeFile.write(
        file,
        w -> {
          w.write(String.join(",", columns) + "\n");
          for (String line : rows) {
            w.write(line);
            w.write('\n');
          }
        });
  }
}
