package dev.ingestbench.harness.staged;

import dev.ingestbench.analysis.report.UnfinishedStreams;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.verification.JobCounts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * A local scenario's accounts: the BigQuery emulator's, sampled every second while the stages run
 * (each job's rows, bytes, connections, CPU and what it accounted for), and once a job stopped,
 * what it accounted for and what it left in its source ({@link StoppedJobs}).
 */
final class SampledAccounts implements JobAccounts {
  private final ScenarioSource source;
  private final ScenarioSampler sampler;
  private final StoppedJobs stopped;

  SampledAccounts(
      ScenarioPlan plan,
      ScenarioSource source,
      String host,
      ScenarioSampler sampler,
      Path segment) {
    this.source = source;
    this.sampler = sampler;
    this.stopped = new StoppedJobs(plan, source, host, sampler, segment);
  }

  @Override
  public void check() throws IOException {
    if (sampler.problem() != null) {
      throw new IOException("the BigQuery emulator stopped answering: " + sampler.problem());
    }
  }

  @Override
  public long progress(String job) {
    return sampler.latestAccountedFor(job);
  }

  /**
   * An ended job's count is read from the BigQuery emulator now; a running job's is its latest
   * sample's, or its consumer group's.
   */
  @Override
  public StageTarget.JobReading read(String job, OptionalInt exit, long expected, Path log)
      throws Exception {
    long accounted;
    boolean shared = false;
    if (exit.isPresent()) {
      try {
        accounted = sampler.job(job).accountedFor();
      } catch (IOException e) {
        // An in-process job that left no results: its count says so once every job stopped.
        accounted = sampler.latestAccountedFor(job);
      }
    } else {
      OptionalLong group = groupAccountedFor(job, expected);
      shared = group.isPresent();
      accounted = shared ? group.getAsLong() : sampler.latestAccountedFor(job);
    }
    return new StageTarget.JobReading(exit, expected, accounted, shared, log);
  }

  /**
   * A shared Kafka consumer group's members: the largest member's count is a lower bound of the
   * group's, and the union of their indexes is read from the BigQuery emulator only once their
   * counts together could reach what was published.
   */
  private OptionalLong groupAccountedFor(String job, long expected) throws Exception {
    List<String> group = source.groupOf(job);
    if (group.size() < 2) {
      return OptionalLong.empty();
    }
    Map<String, Long> latest = new LinkedHashMap<>();
    for (ScenarioSample s : sampler.samples()) {
      if (group.contains(s.job())) {
        latest.merge(s.job(), s.accountedFor(), Math::max);
      }
    }
    long sum = latest.values().stream().mapToLong(Long::longValue).sum();
    long largest = latest.values().stream().mapToLong(Long::longValue).max().orElse(0);
    if (sum < expected) {
      return OptionalLong.of(largest);
    }
    try {
      return OptionalLong.of(StoppedJobs.accountedBy(group, sampler::accounted).cardinality());
    } catch (IOException e) {
      // A member's sink missed a read (an in-process member between its answers): its lower
      // bound, until the next reading.
      return OptionalLong.of(largest);
    }
  }

  @Override
  public void follow(String stage, Map<String, LongSupplier> pids) {
    sampler.follow(stage, pids);
  }

  @Override
  public List<ScenarioSample> samples() {
    return sampler.samples();
  }

  @Override
  public void stopped(String job) {
    stopped.stopped(job);
  }

  @Override
  public Long published() throws IOException {
    return stopped.published();
  }

  @Override
  public JobCounts count(
      String stage, String job, boolean exactlyOnce, Long published, String whyUnknown)
      throws Exception {
    return stopped.count(stage, job, exactlyOnce, published, whyUnknown);
  }

  @Override
  public String unfinishedStreams() throws Exception {
    return UnfinishedStreams.sentence(sampler.status());
  }

  @Override
  public void close() throws Exception {
    sampler.close();
  }
}
