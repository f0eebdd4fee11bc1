package dev.ingestbench.scenario;

import dev.ingestbench.contracts.RateProfile;
import dev.ingestbench.contracts.StopMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * A validated scenario made ready to run at a scale: message counts, rate and durations scaled, the
 * jobs running during each stage worked out, the unordered configurations put in their shuffled
 * order. Pure: it starts nothing, so a dry run, a resume and the tests all see the same plan.
 *
 * @param messages per subscription, scaled
 * @param backlog of {@code messages}, published before the first stage, scaled
 * @param rate messages per second of the rest, scaled (0 without)
 * @param scaled every value the scale changed: key to "full-size -> scaled"
 */
public record ScenarioPlan(
    Scenario scenario,
    double scale,
    long messages,
    long backlog,
    double rate,
    int messageSize,
    Map<String, JobConfig> jobs,
    List<PlannedStage> stages,
    List<PlannedIteration> iterations,
    Map<String, String> scaled) {

  /** JSON messages of the taxi-ride event when a scenario does not say. */
  public static final int DEFAULT_MESSAGE_SIZE = 500;

  /** Avro messages when a scenario does not say: the reference's unpadded event. */
  public static final int DEFAULT_AVRO_MESSAGE_SIZE = 88;

  /** Kafka partitions when a scenario does not say, as in the reference rounds. */
  public static final int DEFAULT_PARTITIONS = 32;

  /**
   * The consumer group of every job with {@code consumer_groups: shared}; the prefix of each job's
   * otherwise.
   */
  public static final String CONSUMER_GROUP = "ingestbench-scenario";

  /**
   * The shortest a scaled hold becomes: long enough for a job started by the stage to write (a
   * local Flink consumer takes 25-50 s before its first row) and then show a steady rate. With 20
   * s, a published round at --scale 0.001 measured nothing: every stage ended before its jobs wrote
   * a row.
   */
  public static final Duration MIN_SCALED_HOLD = Duration.ofSeconds(90);

  /** One run of one unordered configuration. */
  public record PlannedIteration(String job, int iteration) {
    public String marker() {
      return job + "-i" + iteration;
    }
  }

  /**
   * @param scale 0 < scale: multiplies messages, backlog, rate and durations (a scaled hold is
   *     never below {@link #MIN_SCALED_HOLD}, nor a scaled count below 1)
   * @param shuffleSeed orders the unordered configurations; the same seed gives the same order, so
   *     a resumed run continues the order it started
   */
  public static ScenarioPlan of(Scenario s, double scale, long shuffleSeed) {
    if (!(scale > 0)) {
      throw new IllegalArgumentException(
          "--scale " + scale + " must be more than 0, e.g. 0.01 for a hundredth");
    }
    Map<String, String> scaled = new LinkedHashMap<>();
    // A scenario whose stages only search or load-test publishes nothing of its own.
    long messages =
        s.publish().messages() == null
            ? 0
            : scaleCount("publish.messages", s.publish().messages(), scale, scaled);
    long backlog =
        s.publish().backlog() == null
            ? 0
            : scaleCount("publish.backlog", s.publish().backlog(), scale, scaled);
    backlog = Math.min(backlog, messages);
    double rate = 0;
    if (s.publish().rate() != null) {
      rate = s.publish().rate() * scale;
      if (scale != 1) {
        scaled.put("publish.rate", fmt(s.publish().rate()) + " -> " + fmt(rate) + " msg/s");
      }
    }
    int size =
        s.publish().messageSize() != null
            ? s.publish().messageSize()
            : "avro".equals(s.publish().messageFormat())
                ? DEFAULT_AVRO_MESSAGE_SIZE
                : DEFAULT_MESSAGE_SIZE;
    List<PlannedStage> stages = new ArrayList<>();
    if (s.stages() != null) {
      Set<String> running = new LinkedHashSet<>();
      for (int i = 0; i < s.stages().size(); i++) {
        Scenario.Stage st = s.stages().get(i);
        List<String> start = st.start() == null ? List.of() : List.copyOf(st.start());
        List<String> stop = st.stop() == null ? List.of() : List.copyOf(st.stop());
        running.removeAll(stop);
        running.addAll(start);
        String key = "stages." + st.name();
        Duration hold =
            st.hold() == null
                ? null
                : scaleDuration(
                    key + ".hold", Durations.parse(st.hold()).orElseThrow(), scale, scaled);
        Duration max =
            st.max() == null
                ? null
                : scaleDuration(
                    key + ".max", Durations.parse(st.max()).orElseThrow(), scale, scaled);
        StageKind kind = kindOf(st);
        stages.add(
            new PlannedStage(
                i,
                st.name(),
                start,
                stop,
                List.copyOf(running),
                hold,
                st.until() == null ? null : Until.of(st.until()).orElseThrow(),
                max,
                kind,
                st.stopWith() == null ? null : StopMode.of(st.stopWith()).orElseThrow(),
                new StageFaults(
                    st.killConsumerAt() == null
                        ? null
                        : Durations.parse(st.killConsumerAt()).orElseThrow(),
                    st.crashEvery() == null ? null : Durations.parse(st.crashEvery()).orElseThrow(),
                    st.killTaskManagerAt() == null
                        ? null
                        : Durations.parse(st.killTaskManagerAt()).orElseThrow(),
                    st.savepointAt() == null
                        ? null
                        : Durations.parse(st.savepointAt()).orElseThrow()),
                st.liveProfile() == null
                    ? null
                    : RateProfile.parse(Scenario.Stage.LIVE_PROFILE, st.liveProfile())));
      }
    }
    List<PlannedIteration> iterations = new ArrayList<>();
    if (s.unordered() != null) {
      int k = s.unordered().iterations() == null ? 1 : s.unordered().iterations();
      Random random = new Random(shuffleSeed);
      List<String> base = new ArrayList<>(s.unordered().jobs());
      Collections.shuffle(base, random);
      // Balanced as well as shuffled: round i runs the shuffled list rotated by a shuffled offset,
      // so
      // each configuration runs first (and last) equally often, as far as the iterations allow. A
      // plain shuffle per round can put one configuration first every time (1 in 16 for 5 x 2).
      List<Integer> offsets = new ArrayList<>();
      for (int i = 0; i < k; i++) {
        offsets.add(i % base.size());
      }
      Collections.shuffle(offsets, random);
      for (int i = 1; i <= k; i++) {
        List<String> order = new ArrayList<>(base);
        Collections.rotate(order, -offsets.get(i - 1));
        for (String job : order) {
          iterations.add(new PlannedIteration(job, i));
        }
      }
    }
    return new ScenarioPlan(
        s,
        scale,
        messages,
        backlog,
        rate,
        size,
        s.resolvedJobs(),
        List.copyOf(stages),
        List.copyOf(iterations),
        scaled);
  }

  public boolean isStaged() {
    return !stages.isEmpty();
  }

  /** Unordered configurations run at once; 1 unless the scenario says. */
  public int concurrency() {
    return scenario.unordered() == null || scenario.unordered().concurrency() == null
        ? 1
        : scenario.unordered().concurrency();
  }

  /** Messages published while the jobs run, at {@link #rate}. */
  public long liveMessages() {
    return messages - backlog;
  }

  /**
   * Whether the local target feeds the jobs as fast as they read, instead of publishing the backlog
   * up front: a backlog-only scenario run scaled down, whose scaled backlog would be read in
   * seconds (Pub/Sub: each job its own topic, as a backlog sized to last would slow the Pub/Sub
   * emulator itself; Kafka: the one topic). The jobs then read for as long as their stages run;
   * what was published for each until it stopped is what it is verified on.
   */
  public boolean fedLocally() {
    return scale < 1 && backlog > 0 && liveMessages() == 0 && isStaged();
  }

  /** Whether a stage stops {@code job} with a savepoint (its next start restores it). */
  public boolean savepointed(String job) {
    return stages.stream()
        .anyMatch(
            st ->
                (st.stopWith() == StopMode.SAVEPOINT && st.stop().contains(job))
                    || (st.faults().savesAndRestores() && st.running().contains(job)));
  }

  /** Whether a stage kills {@code job}'s consumer (it then restores its last checkpoint). */
  public boolean killed(String job) {
    return stages.stream()
        .anyMatch(st -> st.faults().killsConsumers() && st.running().contains(job));
  }

  /** The first stage that kills its jobs' consumers, if any. */
  public java.util.Optional<PlannedStage> firstKillingStage() {
    return stages.stream().filter(st -> st.faults().killsConsumers()).findFirst();
  }

  /** The first stage that steps the live rate ({@code live_profile}), if any. */
  public java.util.Optional<PlannedStage> firstLiveProfileStage() {
    return stages.stream().filter(st -> st.liveProfile() != null).findFirst();
  }

  /** The first stage that kills a TaskManager of the run's Flink cluster, if any. */
  public Optional<PlannedStage> firstTaskManagerKillingStage() {
    return stages.stream().filter(st -> st.faults().killsTaskManager()).findFirst();
  }

  /** The jobs that run when stage {@code index} begins, before it starts or stops any. */
  public List<String> runningBefore(int index) {
    return index == 0 ? List.of() : stages.get(index - 1).running();
  }

  /** Every job any stage starts, in the order they are first started. */
  public List<String> stagedJobs() {
    Set<String> all = new LinkedHashSet<>();
    stages.forEach(st -> all.addAll(st.start()));
    return List.copyOf(all);
  }

  /**
   * Dead letters a job may write before it fails verification: {@code limits.max_dead_letters}, 0
   * if absent.
   */
  public long maxDeadLetters() {
    Scenario.Limits limits = scenario.limits();
    return limits == null || limits.maxDeadLetters() == null ? 0 : limits.maxDeadLetters();
  }

  /** {@code json} or {@code avro}. */
  public String messageFormat() {
    return scenario.publish().messageFormat() == null ? "json" : scenario.publish().messageFormat();
  }

  public boolean kafka() {
    return scenario.source().isKafka();
  }

  /** The Kafka topic's partitions. */
  public int partitions() {
    return scenario.source().partitions() == null
        ? DEFAULT_PARTITIONS
        : scenario.source().partitions();
  }

  /** Job {@code job}'s Kafka consumer group: one for all with {@code consumer_groups: shared}. */
  public String consumerGroup(String job) {
    return "shared".equals(scenario.source().consumerGroups())
        ? CONSUMER_GROUP
        : CONSUMER_GROUP + "-" + job;
  }

  /** The subscription job {@code job} reads: the file's, or {@code TOPIC-JOB}. */
  public String subscription(String job) {
    List<String> names = new ArrayList<>(jobs.keySet());
    List<String> given = scenario.source().subscriptions();
    return given != null ? given.get(names.indexOf(job)) : scenario.source().topic() + "-" + job;
  }

  /** What the file's stage does: its {@code pubsub_load} or {@code find_max_rate}, else jobs. */
  private static StageKind kindOf(Scenario.Stage st) {
    if (st.isLoadTest()) {
      Map<String, String> flags = new LinkedHashMap<>();
      st.pubsubLoad().forEach((flag, value) -> flags.put(flag, String.valueOf(value)));
      return new StageKind.LoadTest(flags);
    }
    if (st.isMaxRateSearch()) {
      Map<String, String> settings = new LinkedHashMap<>();
      st.findMaxRate()
          .forEach(
              (key, value) -> {
                if (!key.equals("job")) {
                  settings.put(key, String.valueOf(value));
                }
              });
      return new StageKind.MaxRateSearch(String.valueOf(st.findMaxRate().get("job")), settings);
    }
    return new StageKind.Jobs();
  }

  private static long scaleCount(String key, long value, double scale, Map<String, String> scaled) {
    // A count scaled down stays 1 or more; none (a backlog of 0: live messages only) stays none.
    long result = value == 0 ? 0 : Math.max(1, Math.round(value * scale));
    if (result != value) {
      scaled.put(key, String.format(Locale.ROOT, "%,d -> %,d", value, result));
    }
    return result;
  }

  private static Duration scaleDuration(
      String key, Duration d, double scale, Map<String, String> scaled) {
    if (scale == 1) {
      return d;
    }
    Duration result = Duration.ofSeconds(Math.round(d.getSeconds() * scale));
    String note = "";
    if (result.compareTo(MIN_SCALED_HOLD) < 0) {
      result = MIN_SCALED_HOLD.compareTo(d) < 0 ? MIN_SCALED_HOLD : d;
      note = " (the shortest a scaled stage holds)";
    }
    scaled.put(key, Durations.show(d) + " -> " + Durations.show(result) + note);
    return result;
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%,.1f", v);
  }
}
