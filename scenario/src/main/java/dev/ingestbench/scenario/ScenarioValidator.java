package dev.ingestbench.scenario;

import dev.ingestbench.contracts.job.TableRouting;
import dev.ingestbench.contracts.job.WriteConflict;
import dev.ingestbench.contracts.job.WriteMethod;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Every problem of a scenario at once, each as "key: what is wrong; the fix". */
final class ScenarioValidator {
  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]*");

  /** Pub/Sub's rule for topic and subscription names (Kafka topics are a subset of it here). */
  private static final Pattern RESOURCE_NAME = Pattern.compile("[A-Za-z][-A-Za-z0-9_.~+%]{2,254}");

  /**
   * A Compute Engine machine type: lower-case words, digits and dashes (n2-highcpu-8,
   * custom-8-32768).
   */
  private static final Pattern MACHINE_TYPE = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

  private static final Set<String> SOURCES = Set.of("pubsub", "kafka");

  private final List<String> problems = new ArrayList<>();

  /** The checks of each stage's own keys, reporting here. */
  private final StageKeyChecks stageKeys = new StageKeyChecks(this::problem);

  private ScenarioValidator() {}

  static List<String> problems(Scenario s) {
    ScenarioValidator v = new ScenarioValidator();
    v.check(s);
    return v.problems;
  }

  private void check(Scenario s) {
    if (s.name() == null || !NAME.matcher(s.name()).matches()) {
      problem(
          "name",
          "'"
              + s.name()
              + "' is not a name; use lower-case letters, digits and dashes, e.g. two-jobs-10kb");
    }
    checkSource(s.source());
    boolean runsJobs =
        s.unordered() != null
            || s.stages() == null
            || s.stages().stream().anyMatch(st -> !st.isLoadTest() && !st.isMaxRateSearch());
    checkPublish(s.publish(), runsJobs);
    Map<String, JobConfig> jobs = s.resolvedJobs();
    if (jobs.isEmpty()) {
      problem("jobs", "no jobs; name at least one, e.g. jobs: {a: {write_method: exactly-once}}");
    }
    jobs.forEach(this::checkJob);
    if (s.source() != null
        && s.source().subscriptions() != null
        && s.source().subscriptions().size() != jobs.size()) {
      problem(
          "source.subscriptions",
          s.source().subscriptions().size()
              + " subscriptions for "
              + jobs.size()
              + " jobs; give one per job (every job reads every message) or leave the key out");
    }
    checkLimits(s.limits());
    new InProcessSinkChecks(this::problem).check(s, jobs);
    boolean staged = s.stages() != null;
    boolean unordered = s.unordered() != null;
    if (staged == unordered) {
      problem(
          "stages",
          "give either stages (an ordered experiment) or unordered (configurations to compare), not "
              + (staged ? "both" : "neither"));
    }
    if (staged) {
      checkStages(s.stages(), jobs.keySet(), s.publish());
      if (s.source() != null && s.source().isKafka()) {
        for (int i = 0; i < s.stages().size(); i++) {
          if (s.stages().get(i).isLoadTest()) {
            problem(
                "stages[" + i + "].pubsub_load",
                "measures a Pub/Sub source; this scenario reads Kafka (source.kind)");
          }
        }
      }
    }
    if (unordered) {
      checkUnordered(s.unordered(), jobs.keySet());
    }
  }

  private void checkSource(Scenario.Source source) {
    if (source == null) {
      problem("source", "missing; e.g. source: {kind: pubsub, topic: taxi-rides}");
      return;
    }
    if (!SOURCES.contains(String.valueOf(source.kind()))) {
      problem("source.kind", "'" + source.kind() + "' is not a source; use pubsub or kafka");
    }
    if (source.topic() == null || source.topic().isBlank()) {
      problem("source.topic", "missing; name the topic every job reads, e.g. taxi-rides");
    } else if (!RESOURCE_NAME.matcher(source.topic()).matches()
        || source.topic().startsWith("goog")) {
      problem(
          "source.topic",
          "'"
              + source.topic()
              + "' is not a topic name: 3-255 characters, a letter first, then"
              + " letters, digits and - _ . ~ + %, not starting with goog; e.g. taxi-rides");
    }
    if (source.subscriptions() != null) {
      for (String sub : source.subscriptions()) {
        if (sub == null || !RESOURCE_NAME.matcher(sub).matches() || sub.startsWith("goog")) {
          problem(
              "source.subscriptions",
              "'"
                  + sub
                  + "' is not a subscription name: 3-255 characters, a letter"
                  + " first, then letters, digits and - _ . ~ + %, not starting with goog; e.g. taxi-rides-a");
        }
      }
    }
    if (source.isKafka()) {
      if (source.subscriptions() != null) {
        problem(
            "source.subscriptions",
            "Kafka has no subscriptions: every job reads every partition of the topic;"
                + " drop it (source.consumer_groups chooses separate or shared groups)");
      }
      if (source.partitions() != null && source.partitions() < 1) {
        problem("source.partitions", source.partitions() + " must be 1 or more, e.g. 32");
      }
      if (source.consumerGroups() != null
          && !Set.of("separate", "shared").contains(source.consumerGroups())) {
        problem(
            "source.consumer_groups",
            "'" + source.consumerGroups() + "' is not known; use separate or shared");
      }
    } else if (source.partitions() != null || source.consumerGroups() != null) {
      problem(
          "source",
          "partitions and consumer_groups are for kind: kafka; drop them or use kind: kafka");
    }
  }

  /**
   * @param runsJobs whether a stage runs the scenario's jobs: without one (only searches and load
   *     tests, which publish their own) {@code messages} may be left out
   */
  private void checkPublish(Scenario.Publish p, boolean runsJobs) {
    if (p == null) {
      problem(
          "publish",
          "missing; e.g. publish: {messages: 1000000, message_size: 500, backlog: 1000000}");
      return;
    }
    if ((p.messages() == null && runsJobs) || (p.messages() != null && p.messages() <= 0)) {
      problem("publish.messages", "must be 1 or more (messages per subscription)");
    }
    boolean avro = "avro".equals(p.messageFormat());
    if (p.messageFormat() != null && !avro && !"json".equals(p.messageFormat())) {
      problem(
          "publish.message_format", "'" + p.messageFormat() + "' is not known; use json or avro");
    }
    if (p.messageSize() != null && p.messageSize() < (avro ? 80 : 100)) {
      problem(
          "publish.message_size",
          p.messageSize()
              + " bytes is below a taxi-ride event (~"
              + (avro ? "88 B of Avro); use 88" : "500 B of JSON); use 500")
              + " or more");
    }
    long backlog = p.backlog() == null ? 0 : p.backlog();
    if (backlog < 0 || (p.messages() != null && backlog > p.messages())) {
      problem(
          "publish.backlog",
          backlog + " must be between 0 and publish.messages (" + p.messages() + ")");
    }
    boolean live = p.messages() != null && backlog < p.messages();
    if (live && (p.rate() == null || p.rate() <= 0)) {
      problem(
          "publish.rate",
          "the "
              + (p.messages() - backlog)
              + " messages after the backlog need a rate in messages"
              + " per second, e.g. rate: 10000; or set backlog to messages");
    }
  }

  private void checkJob(String name, JobConfig job) {
    String key = "jobs." + name;
    if (!NAME.matcher(name).matches()) {
      problem(key, "'" + name + "' is not a job name; use lower-case letters, digits and dashes");
    }
    if (job.destinationTables() != null
        && (job.destinationTables() < 1 || job.destinationTables() > TableRouting.MAX_TABLES)) {
      problem(key + ".destination_tables", TableRouting.outOfRange(job.destinationTables()));
    }
    atLeastOne(key + ".streams", job.streams());
    if (job.maxConnectionPoolConnections() != null && job.maxConnectionPoolConnections() < 2) {
      problem(
          key + ".max_connection_pool_connections",
          job.maxConnectionPoolConnections()
              + " must be 2 or more (Beam's pool keeps at least 2), e.g. the number of tables");
    }
    if (job.maxConnectionPoolConnections() != null && !Boolean.TRUE.equals(job.connectionPool())) {
      problem(
          key + ".max_connection_pool_connections",
          "sizes Beam's connection pool: add connection_pool: true (at-least-once)");
    }
    atLeastOne(key + ".triggering_frequency", job.triggeringFrequency());
    atLeastOne(key + ".workers", job.workers());
    if (job.machineType() != null && !MACHINE_TYPE.matcher(job.machineType()).matches()) {
      problem(
          key + ".machine_type",
          "'"
              + job.machineType()
              + "' is not a Compute Engine machine type; e.g."
              + " n2-highcpu-8 or custom-8-32768");
    }
    for (WriteConflict c :
        WriteConflict.of(
            job.writeMethod() == null ? WriteMethod.EXACTLY_ONCE : job.writeMethod(),
            Boolean.TRUE.equals(job.connectionPool()),
            job.streams(),
            job.triggeringFrequency())) {
      String setting =
          switch (c) {
            case CONNECTION_POOL -> "connection_pool";
            case STREAMS -> "streams";
            case TRIGGERING_FREQUENCY -> "triggering_frequency";
          };
      problem(
          key + "." + setting,
          c.why()
              + "; set write_method: "
              + c.needs().flag()
              + " or remove "
              + setting
              + (job.writeMethod() == null ? " (write_method is exactly-once by default)" : ""));
    }
  }

  private void checkLimits(Scenario.Limits limits) {
    if (limits == null) {
      return;
    }
    if (limits.quotaMbPerSecond() != null && limits.quotaMbPerSecond() < 0) {
      problem("limits.quota_mb_per_second", "must be 0 (no quota) or more, e.g. 314.57");
    }
    if (limits.quotaWindowSeconds() != null && limits.quotaWindowSeconds() <= 0) {
      problem("limits.quota_window_seconds", "must be more than 0, e.g. 600");
    }
    atLeastOne("limits.max_connections", limits.maxConnections());
    if (limits.maxRequestBytes() != null && limits.maxRequestBytes() < 1) {
      problem("limits.max_request_bytes", "must be 1 or more, e.g. 10000000");
    }
    if (limits.maxDeadLetters() != null && limits.maxDeadLetters() < 0) {
      problem("limits.max_dead_letters", "must be 0 (none allowed) or more, e.g. 100");
    }
    checkQuotaMode(limits);
    Double tablesQuota = limits.tablesApiQuota();
    if (tablesQuota != null && !(tablesQuota == 0 || (tablesQuota >= 1 && tablesQuota <= 1e9))) {
      problem(
          "limits.tables_api_quota",
          "must be 0 (no limit) or 1 to 1,000,000,000 requests a second, e.g. 100");
    }
    Double threshold = limits.createWriteStreamThreshold();
    if (threshold != null && !(threshold >= 0 && threshold <= 1e9)) {
      problem(
          "limits.create_write_stream_threshold",
          "must be 0 (no slowdown) or more calls a second, e.g. 40");
    }
    Double slowdown = limits.createWriteStreamSlowdownMs();
    if (slowdown != null && !(slowdown >= 0 && slowdown <= 60_000)) {
      problem(
          "limits.create_write_stream_slowdown_ms",
          "must be 0 to 60000 milliseconds per call a second above the threshold, e.g. 500");
    }
  }

  /** The BigQuery emulator's default regional window (its --quota-window-seconds). */
  private static final double DEFAULT_QUOTA_WINDOW_SECONDS = 600;

  /** Its default cell window with two-tier (--cell-quota-window-seconds). */
  private static final double DEFAULT_CELL_WINDOW_SECONDS = 10;

  private void checkQuotaMode(Scenario.Limits limits) {
    String mode = limits.quotaMode();
    if (mode != null && !Set.of("throttle", "reject", "two-tier").contains(mode)) {
      problem(
          "limits.quota_mode",
          "'"
              + mode
              + "' is not a quota mode; use throttle (slow appends once the budget is spent),"
              + " reject (refuse them until it refills) or two-tier (a cell quota under the"
              + " regional one)");
      return;
    }
    boolean cellGiven =
        limits.cellQuotaMbPerSecond() != null || limits.cellQuotaWindowSeconds() != null;
    if (cellGiven && !"two-tier".equals(mode)) {
      problem(
          limits.cellQuotaMbPerSecond() != null
              ? "limits.cell_quota_mb_per_second"
              : "limits.cell_quota_window_seconds",
          "cell_quota_mb_per_second and cell_quota_window_seconds set the short-term quota of"
              + " quota_mode: two-tier; add it or drop them");
      return;
    }
    if (!"two-tier".equals(mode)) {
      return;
    }
    if (limits.cellQuotaMbPerSecond() != null && !(limits.cellQuotaMbPerSecond() > 0)) {
      problem("limits.cell_quota_mb_per_second", "must be above 0, e.g. twice quota_mb_per_second");
    }
    double regionalWindow =
        limits.quotaWindowSeconds() == null
            ? DEFAULT_QUOTA_WINDOW_SECONDS
            : limits.quotaWindowSeconds();
    Double cellWindow = limits.cellQuotaWindowSeconds();
    if (cellWindow == null && regionalWindow <= DEFAULT_CELL_WINDOW_SECONDS) {
      problem(
          "limits.quota_window_seconds",
          "must be longer than the cell's window ("
              + DEFAULT_CELL_WINDOW_SECONDS
              + " s by default) with quota_mode: two-tier: the region refills slower than a"
              + " cell; raise it (BigQuery: 600) or set a shorter cell_quota_window_seconds");
    } else if (cellWindow != null && !(cellWindow > 0 && cellWindow < regionalWindow)) {
      problem(
          "limits.cell_quota_window_seconds",
          "must be above 0 and shorter than quota_window_seconds ("
              + regionalWindow
              + "): the cell refills sooner than the region, e.g. 10");
    }
  }

  private void checkStages(
      List<Scenario.Stage> stages, Set<String> jobs, Scenario.Publish publish) {
    StageOptionsCheck options = new StageOptionsCheck(this::problem);
    if (stages.isEmpty()) {
      problem(
          "stages",
          "empty; a stage starts or stops jobs and holds, e.g. - {name: a-alone, start: [a], hold: 10m}");
    }
    Set<String> running = new HashSet<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < stages.size(); i++) {
      Scenario.Stage st = stages.get(i);
      String key = "stages[" + i + "]";
      if (st.name() == null || !NAME.matcher(st.name()).matches()) {
        problem(
            key + ".name",
            "'" + st.name() + "' is not a stage name; use lower-case letters, digits and dashes");
      } else if (!names.add(st.name())) {
        problem(
            key + ".name",
            "'" + st.name() + "' names two stages; status markers need unique names");
      }
      if (st.isLoadTest() && st.isMaxRateSearch()) {
        problem(key, "give pubsub_load or find_max_rate, not both: each is a stage of its own");
        continue;
      }
      if (st.isLoadTest()) {
        stageKeys.loadTest(key, st);
        continue;
      }
      if (st.isMaxRateSearch()) {
        stageKeys.maxRateSearch(key, st, jobs);
        continue;
      }
      for (String job : st.stop() == null ? List.<String>of() : st.stop()) {
        if (!running.remove(job)) {
          problem(
              key + ".stop",
              "'"
                  + job
                  + "' is not running at this stage; stop only jobs an earlier stage started");
        }
      }
      for (String job : st.start() == null ? List.<String>of() : st.start()) {
        if (!jobs.contains(job)) {
          problem(key + ".start", "'" + job + "' is not a job; jobs are " + jobs);
        } else if (!running.add(job)) {
          problem(key + ".start", "'" + job + "' is already running");
        }
      }
      if (running.isEmpty()) {
        problem(key, "no job runs during this stage; start one or end the scenario before it");
      }
      stageKeys.stopWith(key, st);
      stageKeys.hold(key, st);
      options.faults(key, st);
      options.liveProfile(key, st, publish);
    }
  }

  /** Flags the runner sets itself: where the test runs and writes. */
  public static final Set<String> LOAD_TEST_RESERVED =
      Set.of(
          "out",
          "project",
          "pubsub_emulator_host",
          "topic",
          "subscription",
          "sweep",
          "grid",
          "trials",
          "messages",
          "seed",
          "restart",
          "help",
          "version");

  private void checkUnordered(Scenario.Unordered u, Set<String> jobs) {
    if (u.jobs() == null || u.jobs().isEmpty()) {
      problem(
          "unordered.jobs",
          "name the job configurations to compare, e.g. [exactly-once, at-least-once]");
    } else {
      u.jobs().stream()
          .filter(j -> !jobs.contains(j))
          .forEach(j -> problem("unordered.jobs", "'" + j + "' is not a job; jobs are " + jobs));
    }
    atLeastOne("unordered.iterations", u.iterations());
    atLeastOne("unordered.concurrency", u.concurrency());
  }

  private void atLeastOne(String key, Integer value) {
    if (value != null && value < 1) {
      problem(key, value + " must be 1 or more");
    }
  }

  private void problem(String key, String text) {
    problems.add(key + ": " + text);
  }
}
