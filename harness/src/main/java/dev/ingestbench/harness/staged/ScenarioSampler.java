package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import java.io.IOException;
import java.io.Writer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Once a second, for every job that runs: the rows and bytes it appended (the BigQuery emulator's
 * own per-job counts, read from its status endpoint, or from the job's own with {@code sink:
 * in-process}), its open connections, and its consumer's CPU time. Each sample is appended to
 * {@code scenario_samples.csv} at once and kept for the stage's conditions and measures.
 */
final class ScenarioSampler implements AutoCloseable {
  private final JobSinks sinks;
  private final Writer out;
  private final List<ScenarioSample> samples = new ArrayList<>();
  private final Map<String, long[]> lastCounts = new HashMap<>();
  private final Map<String, Long> latestAccounted = new java.util.concurrent.ConcurrentHashMap<>();
  private final Map<String, double[]> lastCpu = new HashMap<>();

  /** Takes a sample every second; null when it only reads the sinks when asked. */
  private final ScheduledExecutorService timer;

  private String stage = "";
  private Map<String, LongSupplier> pids = Map.of();
  private volatile String problem;

  ScenarioSampler(JobSinks sinks, Writer out) {
    this(sinks, out, true);
  }

  private ScenarioSampler(JobSinks sinks, Writer out, boolean everySecond) {
    this.sinks = sinks;
    this.out = out;
    if (everySecond) {
      timer =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "scenario-sampler");
                t.setDaemon(true);
                return t;
              });
      timer.scheduleAtFixedRate(this::sample, 1, 1, TimeUnit.SECONDS);
    } else {
      timer = null;
    }
  }

  /**
   * A reader of the sinks that takes no samples: for a run that measures nothing while it runs (a
   * round, analysed afterwards, whose harness stays out of the machine's way).
   */
  static ScenarioSampler unsampled(JobSinks sinks) {
    return new ScenarioSampler(sinks, Writer.nullWriter(), false);
  }

  /**
   * From now on, samples belong to {@code stage} and cover {@code jobs} (job to its consumer's
   * pid).
   */
  synchronized void follow(String stage, Map<String, LongSupplier> jobs) {
    this.stage = stage;
    this.pids = Map.copyOf(jobs);
  }

  /** The samples taken so far in this segment. */
  synchronized List<ScenarioSample> samples() {
    return List.copyOf(samples);
  }

  /** What {@code job} had accounted for at its latest sample (0 before its first). */
  long latestAccountedFor(String job) {
    return latestAccounted.getOrDefault(job, 0L);
  }

  /** The latest status of {@code job}, read now. */
  EmulatorStatus.Job job(String job) throws IOException {
    return sinks.job(job);
  }

  /** Why sampling failed, if it did (the emulator stopped answering), else null. */
  String problem() {
    return problem;
  }

  /** The event indexes {@code job} has written or dead-lettered, read now. */
  BitSet accounted(String job) throws IOException {
    return sinks.accounted(job);
  }

  /** The BigQuery emulator's whole status, read now, with every in-process job's. */
  EmulatorStatus status() throws IOException {
    return sinks.status();
  }

  private synchronized void sample() {
    if (pids.isEmpty()) {
      return;
    }
    try {
      EmulatorStatus now = status();
      long second = Instant.now().getEpochSecond();
      for (Map.Entry<String, LongSupplier> entry : pids.entrySet()) {
        String job = entry.getKey();
        EmulatorStatus.Job j = now.job(job);
        long[] last = lastCounts.getOrDefault(job, new long[2]);
        lastCounts.put(job, new long[] {j.rowsWritten(), j.bytesWritten()});
        long pid = entry.getValue().getAsLong();
        double cpu = pid > 0 ? ProcessCpuSampler.cpuSeconds(pid) : -1;
        double[] previous = lastCpu.get(job);
        double cpuDelta = 0;
        if (cpu >= 0) {
          cpuDelta = previous != null && previous[0] == pid ? Math.max(0, cpu - previous[1]) : 0;
          lastCpu.put(job, new double[] {pid, cpu});
        }
        ScenarioSample s =
            new ScenarioSample(
                second,
                stage,
                job,
                j.rowsWritten() - last[0],
                j.bytesWritten() - last[1],
                j.openConnections(),
                cpuDelta,
                j.accountedFor());
        samples.add(s);
        latestAccounted.put(job, s.accountedFor());
        out.write(s.toCsvLine());
        out.write('\n');
      }
      out.flush();
    } catch (IOException | RuntimeException e) {
      problem = e.toString();
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (timer != null) {
      timer.shutdownNow();
    }
    out.close();
  }
}
