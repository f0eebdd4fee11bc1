package dev.ingestbench.scenario;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An investigation as a file: where messages come from, what is published, the named consumer jobs,
 * the local server's limits, and either ordered {@code stages} that start and stop jobs or {@code
 * unordered} configurations run one at a time for comparison. Keys are snake_case in YAML and are
 * contracts: scenario files in users' repositories rely on them.
 *
 * @param jobDefaults settings every job starts from; a job's own keys override them
 */
public record Scenario(
    String name,
    String description,
    Source source,
    Publish publish,
    @JsonProperty("job_defaults") JobConfig jobDefaults,
    Map<String, JobConfig> jobs,
    Limits limits,
    List<Stage> stages,
    Unordered unordered) {

  /** Every job with the defaults applied, in the file's order. */
  public Map<String, JobConfig> resolvedJobs() {
    Map<String, JobConfig> resolved = new LinkedHashMap<>();
    if (jobs != null) {
      jobs.forEach((name, job) -> resolved.put(name, JobConfig.merge(jobDefaults, job)));
    }
    return resolved;
  }

  /**
   * @param kind {@code pubsub} or {@code kafka}
   * @param subscriptions Pub/Sub: one per job in the order of {@code jobs}; absent: {@code
   *     TOPIC-JOB}
   * @param partitions Kafka: the topic's partitions (absent: 32, as in the reference rounds)
   * @param consumerGroups Kafka: {@code separate} (a group per job; the default) or {@code shared}
   */
  public record Source(
      String kind,
      String topic,
      List<String> subscriptions,
      Integer partitions,
      @JsonProperty("consumer_groups") String consumerGroups) {

    public boolean isKafka() {
      return "kafka".equals(kind);
    }
  }

  /**
   * @param messages per subscription (every job reads every message)
   * @param messageSize bytes per message (absent: 500 for JSON, 88 for Avro)
   * @param messageFormat {@code json} (the default) or {@code avro}
   * @param backlog of {@code messages}, published before any job starts
   * @param rate messages per second of the rest, published while the jobs run
   */
  public record Publish(
      Long messages,
      @JsonProperty("message_size") Integer messageSize,
      Long backlog,
      Double rate,
      @JsonProperty("message_format") String messageFormat) {}

  /**
   * The local BigQuery emulator's limits (the flags of {@code ingestbench bigquery-emulator}), and
   * the run's own.
   *
   * @param maxDeadLetters dead letters a job may write before it fails verification (absent: 0), as
   *     {@code round --max-dead-letters}
   * @param quotaMode {@code throttle}, {@code reject} or {@code two-tier}, as {@code --quota-mode}
   */
  public record Limits(
      @JsonProperty("quota_mb_per_second") Double quotaMbPerSecond,
      @JsonProperty("quota_window_seconds") Double quotaWindowSeconds,
      @JsonProperty("max_connections") Integer maxConnections,
      @JsonProperty("max_request_bytes") Long maxRequestBytes,
      @JsonProperty("max_dead_letters") Long maxDeadLetters,
      @JsonProperty("quota_mode") String quotaMode,
      @JsonProperty("cell_quota_mb_per_second") Double cellQuotaMbPerSecond,
      @JsonProperty("cell_quota_window_seconds") Double cellQuotaWindowSeconds,
      @JsonProperty("tables_api_quota") Double tablesApiQuota,
      @JsonProperty("create_write_stream_threshold") Double createWriteStreamThreshold,
      @JsonProperty("create_write_stream_slowdown_ms") Double createWriteStreamSlowdownMs) {

    /** Whether any key set is the emulator process's (all but {@code max_dead_letters}). */
    public boolean setsEmulatorLimits() {
      return java.util.stream.Stream.of(
              quotaMbPerSecond,
              quotaWindowSeconds,
              maxConnections,
              maxRequestBytes,
              quotaMode,
              cellQuotaMbPerSecond,
              cellQuotaWindowSeconds,
              tablesApiQuota,
              createWriteStreamThreshold,
              createWriteStreamSlowdownMs)
          .anyMatch(java.util.Objects::nonNull);
    }

    /** Only the run's own limit: the emulator's keep BigQuery's defaults. */
    public static Limits maxDeadLetters(Long maxDeadLetters) {
      return new Limits(null, null, null, null, maxDeadLetters, null, null, null, null, null, null);
    }
  }

  /**
   * One step of an ordered scenario: start and stop jobs (together), then hold for a duration or
   * until a condition.
   *
   * @param hold a duration: {@code 90s}, {@code 15m}, {@code 1h}
   * @param until {@code steady} (docs/methodology.md's steady-state rule) or {@code drained}
   * @param max the longest an {@code until} may wait, a duration
   * @param pubsubLoad instead of starting and stopping jobs: a Pub/Sub load test ({@code
   *     ingestbench pubsub-load}) with these flags (keys without the dashes, {@code burn_in: 10s}),
   *     so a round can begin by measuring its source
   * @param stopWith how the jobs in {@code stop} end: {@code drain}, {@code savepoint} (Flink's
   *     stop-with-savepoint; a later start of the job restores it) or {@code cancel}; absent: the
   *     target's default (a local stage drains, a Dataflow stage does as {@code --stop-with} says)
   * @param findMaxRate instead of starting and stopping jobs: {@code ingestbench round
   *     --find-max-rate} with the settings of the job named by its {@code job} key, on servers of
   *     its own ({@code latency_slo}, {@code probe_duration}, {@code max_probes}, {@code
   *     confirm_probes}: that command's flags)
   * @param killConsumerAt kill every running job's consumer (SIGKILL) this long after the stage
   *     started, and start it again from its last Flink checkpoint ({@code round
   *     --kill-consumer-at}); see {@link StageFaults}
   * @param crashEvery kill each running job's consumer again this long after each life started
   *     writing ({@code round --crash-every})
   * @param killTaskManagerAt kill one TaskManager of the run's Flink cluster (SIGKILL) this long
   *     after every running job has written ({@code round --kill-taskmanager-at}); Flink restores
   *     the jobs from their last checkpoint and a fresh TaskManager takes its place
   * @param liveProfile steps of the live rate from the stage's start, in multiples of {@code
   *     publish.rate} ({@code 1x:30s,3x:30s}, as {@code round --live-profile}); after its last step
   *     the rate is {@code publish.rate} again
   * @param savepointAt stop every running job's consumer with a Flink savepoint this long after the
   *     stage started (once it has written), and start it again from that savepoint ({@code round
   *     --savepoint-at}): a planned stop and restore, as {@code stop_with: savepoint} then {@code
   *     start} across two stages, inside one
   */
  public record Stage(
      String name,
      List<String> start,
      List<String> stop,
      String hold,
      String until,
      String max,
      @JsonProperty(Stage.PUBSUB_LOAD) Map<String, Object> pubsubLoad,
      @JsonProperty(Stage.STOP_WITH) String stopWith,
      @JsonProperty(Stage.FIND_MAX_RATE) Map<String, Object> findMaxRate,
      @JsonProperty(Stage.KILL_CONSUMER_AT) String killConsumerAt,
      @JsonProperty(Stage.CRASH_EVERY) String crashEvery,
      @JsonProperty(Stage.KILL_TASKMANAGER_AT) String killTaskManagerAt,
      @JsonProperty(Stage.LIVE_PROFILE) String liveProfile,
      @JsonProperty(Stage.SAVEPOINT_AT) String savepointAt) {
    // The stage keys a scenario file writes, as errors and --dry-run name them.
    public static final String PUBSUB_LOAD = "pubsub_load";
    public static final String STOP_WITH = "stop_with";
    public static final String FIND_MAX_RATE = "find_max_rate";
    public static final String KILL_CONSUMER_AT = "kill_consumer_at";
    public static final String CRASH_EVERY = "crash_every";
    public static final String KILL_TASKMANAGER_AT = "kill_taskmanager_at";
    public static final String LIVE_PROFILE = "live_profile";
    public static final String SAVEPOINT_AT = "savepoint_at";

    public boolean isLoadTest() {
      return pubsubLoad != null;
    }

    public boolean isMaxRateSearch() {
      return findMaxRate != null;
    }
  }

  /**
   * Configurations compared one at a time (or {@code concurrency} at once) in shuffled order.
   *
   * @param jobs names from {@code jobs}, each one configuration
   * @param iterations runs of each configuration
   */
  public record Unordered(List<String> jobs, Integer iterations, Integer concurrency) {}
}
