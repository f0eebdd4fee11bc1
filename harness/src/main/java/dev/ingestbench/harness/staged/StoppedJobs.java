package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.verification.JobCounts;
import dev.ingestbench.verification.LeftInSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The verification of a local segment's jobs once every one has stopped: what was published to
 * each, what it accounted for (the BigQuery emulator's event indexes), and what it left in its
 * source, counted by reading the subscription (or the Kafka group's unread records) rather than
 * assumed.
 */
final class StoppedJobs {
  private final ScenarioPlan plan;
  private final ScenarioSource source;
  private final String host;
  private final ScenarioSampler emulator;
  private final Path segment;

  /**
   * The jobs counted together with a job: the members of its shared Kafka consumer group, which
   * share the topic's work, or the job alone.
   */
  private final Function<String, List<String>> countedWith;

  /** Prints a line as the run does. */
  private final Consumer<String> say;

  /** When each job of this segment stopped (System.nanoTime), in the order they stopped. */
  private final Map<String, Long> stoppedAt = new LinkedHashMap<>();

  StoppedJobs(
      ScenarioPlan plan,
      ScenarioSource source,
      String host,
      ScenarioSampler emulator,
      Path segment,
      Function<String, List<String>> countedWith,
      Consumer<String> say) {
    this.plan = plan;
    this.source = source;
    this.host = host;
    this.emulator = emulator;
    this.segment = segment;
    this.countedWith = countedWith;
    this.say = say;
  }

  void stopped(String job) {
    stoppedAt.put(job, System.nanoTime());
  }

  /**
   * Published messages: the backlog and the live messages, as the publishers' results say Pub/Sub
   * (or Kafka) acknowledged them; null when a publisher left no result (it was stopped).
   */
  Long published() throws IOException {
    Long backlog = acknowledged(RunFiles.PUBLISHER_BACKLOG, plan.backlog() > 0);
    Long live = acknowledged(RunFiles.PUBLISHER_LIVE, plan.liveMessages() > 0);
    return backlog == null || live == null ? null : backlog + live;
  }

  /**
   * What one publisher's result says was acknowledged: 0 without a result where the plan publishes
   * nothing that way (a max-rate search's probes, which no plan counts, have theirs), null where it
   * does.
   */
  private Long acknowledged(String file, boolean planned) throws IOException {
    Path result = segment.resolve(file);
    if (Files.exists(result)) {
      return RunJson.read(result, PublisherResult.class).published();
    }
    return planned ? null : Long.valueOf(0);
  }

  /**
   * Job {@code job}'s figures, from {@code published} messages; waits for its messages to return
   * first.
   *
   * @param published null when not known, then {@code whyUnknown} says why (null: a publisher
   *     stopped)
   */
  JobCounts count(String stage, String job, boolean exactlyOnce, Long published, String whyUnknown)
      throws Exception {
    EmulatorStatus.Job status;
    try {
      status = emulator.job(job);
    } catch (IOException e) {
      return JobCounts.of(
              stage,
              job,
              exactlyOnce,
              published == null ? 0 : published,
              EmulatorStatus.Job.empty(job),
              0,
              null)
          .unverified(e.getMessage());
    }
    List<String> group = countedWith.apply(job);
    BitSet groupAccounted = null;
    long accountedFor = status.accountedFor();
    if (group.size() > 1) {
      try {
        groupAccounted = accountedBy(group, emulator::accounted);
      } catch (IOException e) {
        return JobCounts.of(
                stage, job, exactlyOnce, published == null ? 0 : published, status, 0, null)
            .unverified("could not read what its consumer group accounted for: " + e.getMessage());
      }
      if (published != null) {
        // The other members may have read on, past what was published while this job ran (a fed
        // topic).
        groupAccounted = groupAccounted.get(0, (int) Math.min(Integer.MAX_VALUE, published));
      }
      accountedFor = groupAccounted.cardinality();
    }
    if (published == null) {
      return JobCounts.of(stage, job, exactlyOnce, 0, status, accountedFor, null)
          .unverified(
              whyUnknown != null
                  ? whyUnknown
                  : "a publisher was stopped before it wrote its result, so what was published is"
                      + " not known; see the publisher logs in "
                      + segment);
    }
    if (accountedFor >= published) {
      // Every published message is accounted for: nothing can be left, and there is nothing to wait
      // for.
      return JobCounts.of(stage, job, exactlyOnce, published, status, accountedFor, 0L);
    }
    BitSet inSource;
    try {
      inSource = source.left(host, job, stoppedAt.get(job), say);
    } catch (IOException e) {
      return JobCounts.of(stage, job, exactlyOnce, published, status, accountedFor, null)
          .unverified("could not read what it left in its source: " + e.getMessage());
    }
    BitSet accountedIndexes;
    try {
      accountedIndexes = groupAccounted != null ? groupAccounted : emulator.accounted(job);
    } catch (IOException e) {
      return JobCounts.of(stage, job, exactlyOnce, published, status, accountedFor, null)
          .unverified("could not read which messages it accounted for: " + e.getMessage());
    }
    long left = LeftInSource.count(inSource, accountedIndexes, published);
    return JobCounts.of(stage, job, exactlyOnce, published, status, accountedFor, left);
  }

  /** Reads a job's accounted event indexes. */
  interface AccountedIndexes {
    BitSet of(String job) throws IOException;
  }

  /**
   * What the jobs of one Kafka consumer group accounted for together. They share the work: KafkaIO
   * reads every partition from the offsets the group committed, so each message is the group's to
   * account for, by whichever job read it.
   */
  static BitSet accountedBy(List<String> group, AccountedIndexes accounted) throws IOException {
    BitSet union = new BitSet();
    for (String member : group) {
      union.or(accounted.of(member));
    }
    return union;
  }
}
