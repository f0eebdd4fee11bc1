package dev.ingestbench.harness.staged;

import dev.ingestbench.analysis.report.UnfinishedStreams;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.harness.stack.LocalStack;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.verification.JobCounts;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * A local run's accounts, a scenario's or a round's, read from where each job writes ({@link
 * JobSinks}: the BigQuery emulator process, or a job's in-process one): while the jobs run, what
 * each has accounted for (a scenario samples it every second; a round, which measures nothing while
 * it runs, counts a running job as having accounted for nothing, so that only its consumer's own
 * stop ends the stage); once a job stopped, what it accounted for and what it left in its source
 * ({@link StoppedJobs}): the one way every local job is counted.
 */
public final class SinkAccounts implements AutoCloseable {
  /** What a running job has written so far, for a fault to wait for. */
  @FunctionalInterface
  public interface Progress {
    long of(String job);
  }

  /**
   * Each shared group's union of what its members accounted for, as last read, with the members'
   * summed counts it was read at: read again only once they wrote more (every member's event
   * indexes, every second, otherwise).
   */
  private final Map<List<String>, long[]> unions = new ConcurrentHashMap<>();

  private final ScenarioSampler sampler;
  private final StoppedJobs stopped;
  private final Progress progress;

  /** The jobs counted together with a job (its shared Kafka consumer group's), or it alone. */
  private final Function<String, List<String>> countedWith;

  private SinkAccounts(
      ScenarioPlan plan,
      ScenarioSource source,
      String host,
      ScenarioSampler sampler,
      Path segment,
      Progress progress,
      Function<String, List<String>> countedWith,
      Consumer<String> say) {
    this.sampler = sampler;
    this.stopped = new StoppedJobs(plan, source, host, sampler, segment, countedWith, say);
    this.progress = progress;
    this.countedWith = countedWith;
  }

  /**
   * A scenario's: every job's sink sampled every second into {@code samples}, its progress its
   * latest sample's.
   *
   * @param segment where the publishers' results are
   */
  static SinkAccounts sampled(
      ScenarioPlan plan,
      ScenarioSource source,
      String host,
      JobSinks sinks,
      Writer samples,
      Path segment) {
    ScenarioSampler sampler = new ScenarioSampler(sinks, samples);
    return new SinkAccounts(
        plan,
        source,
        host,
        sampler,
        segment,
        sampler::latestAccountedFor,
        source::groupOf,
        RunLog.lines("run"));
  }

  /**
   * A round's: the sinks read only once a job stopped, its progress while it runs what its consumer
   * says ({@code progress}). Each job is counted alone, also in a shared Kafka consumer group: a
   * round starts its jobs together, and KafkaIO's readers each read every partition whatever their
   * group (docs/kafka.md), so every job reads every record.
   *
   * @param inProcess each job that writes in-process, to its consumer's directory
   * @param logs each job's consumer log
   * @param segment where the publishers' results are
   * @param say prints a line as the round does
   */
  public static SinkAccounts unsampled(
      ScenarioPlan plan,
      ScenarioSource source,
      LocalStack stack,
      Map<String, Path> inProcess,
      Function<String, Path> logs,
      Path segment,
      Progress progress,
      Consumer<String> say) {
    return new SinkAccounts(
        plan,
        source,
        stack.host(),
        ScenarioSampler.unsampled(new JobSinks(stack.bigQueryRest(), inProcess, logs)),
        segment,
        progress,
        List::of,
        say);
  }

  /** Throws when the accounts can no longer be read (the BigQuery emulator stopped answering). */
  public void check() throws IOException {
    if (sampler.problem() != null) {
      throw new IOException("the BigQuery emulator stopped answering: " + sampler.problem());
    }
  }

  /** What the job has accounted for so far: a fault waits for it to write. */
  public long progress(String job) {
    return progress.of(job);
  }

  /**
   * An ended job's count is read from the BigQuery emulator now; a running job's is its latest
   * sample's, or its consumer group's.
   *
   * @param exit its consumer's exit code once it ended by itself, else empty
   * @param expected the messages it is to read
   * @param log its consumer's log
   */
  public StageTarget.JobReading read(String job, OptionalInt exit, long expected, Path log)
      throws Exception {
    long accounted;
    boolean shared = false;
    if (exit.isPresent()) {
      try {
        List<String> group = countedWith.apply(job);
        accounted =
            group.size() > 1
                // A shared Kafka group's member ended by itself once the group had read it all.
                ? StoppedJobs.accountedBy(group, sampler::accounted).cardinality()
                : sampler.job(job).accountedFor();
      } catch (IOException e) {
        // An in-process job that left no results, a sink that did not answer: its progress until
        // then; its count says what it is once every job stopped.
        accounted = progress.of(job);
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
    List<String> group = countedWith.apply(job);
    if (group.size() < 2) {
      return OptionalLong.empty();
    }
    long sum = 0;
    long largest = 0;
    for (String member : group) {
      long accounted = sampler.latestAccountedFor(member);
      sum += accounted;
      largest = Math.max(largest, accounted);
    }
    if (sum < expected) {
      return OptionalLong.of(largest);
    }
    long[] last = unions.get(group);
    if (last != null && last[0] == sum) {
      return OptionalLong.of(last[1]); // nothing written since: the union as last read
    }
    try {
      long union = StoppedJobs.accountedBy(group, sampler::accounted).cardinality();
      unions.put(group, new long[] {sum, union});
      return OptionalLong.of(union);
    } catch (IOException e) {
      // A member's sink missed a read (an in-process member between its answers): its lower
      // bound, until the next reading.
      return OptionalLong.of(largest);
    }
  }

  /** From now on, samples belong to {@code stage} and these running jobs (their pids). */
  public void follow(String stage, Map<String, LongSupplier> pids) {
    sampler.follow(stage, pids);
  }

  /** The samples taken so far (none for a round). */
  public List<ScenarioSample> samples() {
    return sampler.samples();
  }

  /** The job's consumer has stopped: what it left in its source is counted from then. */
  public void stopped(String job) {
    stopped.stopped(job);
  }

  /**
   * The messages published, as the publishers' results say; null when a publisher left no result.
   */
  public Long published() throws IOException {
    return stopped.published();
  }

  /**
   * A stopped job's figures, from {@code published} messages (null when not known, then {@code
   * whyUnknown} says why).
   */
  public JobCounts count(
      String stage, String job, boolean exactlyOnce, Long published, String whyUnknown)
      throws Exception {
    return stopped.count(stage, job, exactlyOnce, published, whyUnknown);
  }

  /** One sentence on rows appended and never made visible, or null when there are none. */
  public String unfinishedStreams() throws Exception {
    return UnfinishedStreams.sentence(sampler.status());
  }

  @Override
  public void close() throws IOException {
    sampler.close();
  }
}
