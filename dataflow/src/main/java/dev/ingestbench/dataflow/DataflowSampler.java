package dev.ingestbench.dataflow;

import dev.ingestbench.contracts.ScenarioSample;
import java.io.IOException;
import java.io.Writer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Every poll interval, for every job that runs: the rows its BigQueryIO write step appended ({@code
 * recordsAppended}), the message bytes it converted and the vCPU-seconds its workers used since the
 * last poll, read from the Dataflow API's job counters. Each sample is appended to {@code
 * scenario_samples.csv} at once, as the local sampler does each second.
 */
final class DataflowSampler implements AutoCloseable {
  private final DataflowJobs api;
  private final Writer out;
  private final int seconds;
  private final List<ScenarioSample> samples = new ArrayList<>();

  /** Counters by job and Dataflow job id (a resumed job is a new Dataflow job: a new baseline). */
  private final Map<String, Map<String, Double>> last = new HashMap<>();

  private final Map<String, Map<String, Double>> latest = new HashMap<>();
  private final Map<String, Long> lastAt = new HashMap<>();

  /**
   * When each job's counters were last read (System.nanoTime): a sample covers the time between two
   * reads, not the nominal interval, which a busy machine or a slow API stretches or shortens.
   */
  private final Map<String, Long> lastReadNanos = new HashMap<>();

  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "dataflow-sampler");
            t.setDaemon(true);
            return t;
          });
  private String stage = "";
  private Map<String, String> jobIds = Map.of();
  private volatile String problem;

  DataflowSampler(DataflowJobs api, Writer out, int seconds) {
    this.api = api;
    this.out = out;
    this.seconds = seconds;
    timer.scheduleAtFixedRate(this::sample, seconds, seconds, TimeUnit.SECONDS);
  }

  /**
   * From now on, samples belong to {@code stage} and cover {@code jobs} (job to Dataflow job id).
   */
  synchronized void follow(String stage, Map<String, String> jobs) {
    this.stage = stage;
    this.jobIds = Map.copyOf(jobs);
  }

  synchronized List<ScenarioSample> samples() {
    return List.copyOf(samples);
  }

  /** The job's counters as of the latest poll (empty before its first). */
  synchronized Map<String, Double> counters(String job) {
    return latest.getOrDefault(job, Map.of());
  }

  /** Why the latest poll failed, or null. A failed poll is retried at the next interval. */
  String problem() {
    return problem;
  }

  private synchronized void sample() {
    long now = Instant.now().getEpochSecond();
    try {
      for (Map.Entry<String, String> entry : jobIds.entrySet()) {
        String job = entry.getKey();
        String key = job + "/" + entry.getValue();
        Map<String, Double> counters = api.counters(entry.getValue());
        long readNanos = System.nanoTime();
        Long readBefore = lastReadNanos.put(key, readNanos);
        Map<String, Double> before = last.get(key);
        last.put(key, counters);
        latest.put(job, counters);
        Long since = lastAt.put(key, now);
        if (before == null || since == null || readBefore == null) {
          continue; // the first poll of a job is its baseline
        }
        // In whole seconds, as every sample is counted: the nearest to the time between the reads.
        int covered = (int) Math.max(1, Math.round((readNanos - readBefore) / 1e9));
        ScenarioSample s =
            new ScenarioSample(
                since,
                stage,
                job,
                (long) delta(counters, before, DataflowJobs.RECORDS_APPENDED),
                (long) delta(counters, before, DataflowJobs.MESSAGE_BYTES),
                0,
                delta(counters, before, DataflowJobs.TOTAL_VCPU_TIME),
                (long)
                    (value(counters, DataflowJobs.RECORDS_APPENDED)
                        + value(counters, DataflowJobs.DEAD_LETTERED)
                        + value(counters, DataflowJobs.REJECTED)),
                covered);
        samples.add(s);
        out.write(s.toCsvLine());
        out.write('\n');
      }
      out.flush();
      problem = null;
    } catch (IOException | RuntimeException e) {
      problem = e.getMessage();
    }
  }

  private static double value(Map<String, Double> counters, String name) {
    return counters.getOrDefault(name, 0.0);
  }

  private static double delta(Map<String, Double> now, Map<String, Double> before, String name) {
    return Math.max(0, value(now, name) - value(before, name));
  }

  @Override
  public synchronized void close() throws IOException {
    timer.shutdownNow();
    out.close();
  }
}
