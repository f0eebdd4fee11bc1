package dev.ingestbench.cli.scenario;

import dev.ingestbench.analysis.report.UnfinishedStreams;
import dev.ingestbench.analysis.scenario.OnlineSteady;
import dev.ingestbench.analysis.scenario.ResultRecords;
import dev.ingestbench.analysis.scenario.ScenarioReport;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.process.ChildJvm;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.emulator.PubsubEmulator;
import dev.ingestbench.harness.verify.Finding;
import dev.ingestbench.harness.verify.JobCounts;
import dev.ingestbench.harness.verify.Verdict;
import dev.ingestbench.harness.verify.VerificationPolicy;
import dev.ingestbench.kafka.LocalKafka;
import dev.ingestbench.pubsub.PubsubAdmin;
import dev.ingestbench.pubsub.PubsubPaths;
import dev.ingestbench.scenario.Durations;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.scenario.ScenarioPlan.PlannedStage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Runs an ordered scenario locally: one Pub/Sub emulator and one BigQuery emulator shared by every
 * job, the backlog published before the first stage (and live messages during the stages), then
 * each stage in turn: stop and start its jobs, hold or wait for its condition, measure, mark it done.
 *
 * <p>A rerun resumes at the first stage without a marker. Local emulators keep no state between
 * runs, so a resumed segment publishes the backlog again, restarts the jobs that ran before that
 * stage and waits until they are steady (a warm-up that is not measured) before the stage begins.
 */
final class StagedLocalRun {
  /** How long a resumed run waits for the jobs it starts again to be steady, unless --warm-up-max says. */
  public static final Duration DEFAULT_WARM_UP_MAX = Duration.ofMinutes(2);
  private static final long PROGRESS_EVERY_SECONDS = 10;
  /** How long the run waits, after its last stage, for the live publisher to publish what is left. */
  private static final Duration LIVE_FINISH_MAX = Duration.ofMinutes(10);
  /** A job's consumer stops a few seconds after it has read everything: idle up to this is not a finding. */
  private static final long IDLE_TOLERANCE_SECONDS = 5;

  private final ScenarioPlan plan;
  private final Duration warmUpMax;
  private final RunDirectory dir;
  private final ScenarioRun run;
  private final String heap;
  private final LocalServices services;
  private final LocalJobs jobs;
  private final Map<String, Map<String, String>> labels;
  private final Verdict verdict;

  StagedLocalRun(ScenarioPlan plan, RunDirectory dir, ScenarioRun run, String heap, Duration warmUpMax) {
    this.plan = plan;
    this.warmUpMax = warmUpMax;
    this.dir = dir;
    this.run = run;
    this.heap = heap;
    this.services = new LocalServices(plan);
    long longest = plan.stages().stream().mapToLong(s -> s.longest().getSeconds()).sum();
    this.jobs = new LocalJobs(plan, longest + warmUpMax.getSeconds() + 600, heap);
    this.labels = jobs.resultLabels(plan.jobs().keySet(), run.machine());
    this.verdict = new Verdict(new VerificationPolicy(plan.maxDeadLetters()));
  }

  private int firstUnfinished() {
    int k = 0;
    while (k < plan.stages().size() && dir.isDone(plan.stages().get(k).marker())) {
      k++;
    }
    return k;
  }

  /** --dry-run: every action, with the command line of every process, and nothing started. */
  void describe(PrintStream out) {
    int first = firstUnfinished();
    Path segment = dir.root().resolve("segment-N");
    String pubsub = plan.kafka() ? "KAFKA_BOOTSTRAP" : "PUBSUB_HOST";
    BigQueryEmulatorProcess.Address bq = new BigQueryEmulatorProcess.Address("BQ_GRPC", "BQ_REST");
    out.println("Would run " + plan.scenario().name() + " locally into " + dir.root() + ":");
    out.println(plan.kafka()
        ? "  start a Kafka broker (KRaft, own JVM) on a free port -> KAFKA_BOOTSTRAP; create topic "
            + plan.scenario().source().topic() + " with " + plan.partitions() + " partitions"
        : "  start the Pub/Sub emulator (pstest) on a free port -> PUBSUB_HOST");
    out.println("  start the BigQuery emulator: ingestbench bigquery-emulator "
        + String.join(" ", services.bigQueryEmulatorArgs(segment)));
    if (!plan.kafka()) {
      out.println("  create topic " + plan.scenario().source().topic() + " and subscriptions " + services.subscriptions());
    }
    if (plan.backlog() > 0) {
      out.println(String.format(Locale.ROOT, "  publish the backlog (%,d messages): ingestbench publish %s", plan.backlog(),
          String.join(" ", services.backlogPublisherArgs(pubsub, segment))));
    }
    if (plan.liveMessages() > 0) {
      out.println(String.format(Locale.ROOT, "  publish %,d live messages during the stages: ingestbench publish %s",
          plan.liveMessages(), String.join(" ", services.livePublisherArgs(pubsub, segment))));
    }
    if (first > 0) {
      out.println("  skip stages 1-" + first + " (finished); restart " + plan.runningBefore(first)
          + " and wait until steady (max " + Durations.show(warmUpMax) + ")");
    }
    for (int k = first; k < plan.stages().size(); k++) {
      PlannedStage st = plan.stages().get(k);
      out.println(String.format(Locale.ROOT, "  stage %d/%d %s:", k + 1, plan.stages().size(), st.name()));
      if (st.isLoadTest()) {
        out.println("    ingestbench pubsub-load " + String.join(" ", LoadTestStage.args(st, "PUBSUB_HOST",
            plan.scenario().source().topic(), LoadTestStage.directory(dir.root(), st))) + " (with " + st.running()
            + " running); then write status/" + st.marker() + ".json");
        continue;
      }
      for (String job : st.stop()) {
        out.println("    stop job " + job + " (close its stdin; it writes its results and exits)");
      }
      for (String job : st.start()) {
        out.println("    start job " + job + ": ingestbench consume " + String.join(" ", jobs.args(job, pubsub, bq, segment)));
      }
      out.println("    " + st.condition() + " with " + st.running() + " running; then measure and write status/"
          + st.marker() + ".json");
    }
    out.println("  stop every job; count what each left in its " + (plan.kafka() ? "consumer group" : "subscription")
        + " and verify it (lost = published - accounted for - left)");
    out.println("  stop the " + (plan.kafka() ? "broker" : "Pub/Sub emulator")
        + " and the BigQuery emulator; write report.md and results.jsonl");
  }

  /**
   * Runs the unfinished stages, then verifies every job of this segment once all have stopped; returns
   * the verification policy's exit code (1 when any job of any stage failed, 3 when a job could not be
   * verified).
   */
  int run() throws Exception {
    int first = firstUnfinished();
    if (first == plan.stages().size()) {
      say("Every stage is finished already (status/ in %s); the report is rewritten. --restart runs it again.", dir.root());
      return ExitCodes.OK;
    }
    int segmentNo = dir.nextSegment();
    Path segment = dir.segment(segmentNo);
    if (first > 0) {
      say("Resuming at stage %d/%d %s: stages 1-%d are finished and skipped", first + 1, plan.stages().size(),
          plan.stages().get(first).name(), first);
    }
    try (ProcessCpuSampler cpu = new ProcessCpuSampler(segment);
        PubsubEmulator pubsub = plan.kafka() ? null : PubsubEmulator.start();
        // A resumed run gets a new broker: its topic is published again into the new segment.
        LocalKafka kafka = plan.kafka()
            ? LocalKafka.start(segment.resolve("kafka-data"), segment.resolve("kafka.log"), plan.partitions(), "1g")
            : null;
        BigQueryEmulatorProcess bigQuery = BigQueryEmulatorProcess.start(
            services.bigQueryEmulatorArgs(segment), segment.resolve("bigquery-emulator.log"));
        LocalJobs running = jobs;
        ScenarioSampler sampler = new ScenarioSampler(bigQuery.address().rest(), dir.samplesWriter())) {
      String host;
      if (kafka != null) {
        host = kafka.bootstrapServers();
        kafka.createTopic(plan.scenario().source().topic(), plan.partitions());
        cpu.watch("kafka", kafka.pid());
        say("Kafka %s broker (KRaft) on %s, topic %s with %d partitions; BigQuery emulator: Storage Write API on %s,"
            + " REST on %s", LocalKafka.version(), host, plan.scenario().source().topic(), plan.partitions(),
            bigQuery.address().grpc(), bigQuery.address().rest());
      } else {
        host = pubsub.hostAndPort();
        cpu.watch(ScenarioReport.PUBSUB_EMULATOR_PROCESS, pubsub.pid());
        say("Pub/Sub emulator on %s; BigQuery emulator: Storage Write API on %s, REST on %s", host,
            bigQuery.address().grpc(), bigQuery.address().rest());
        PubsubAdmin.ensureTopicAndSubscriptions(host,
            PubsubPaths.topic(LocalJobs.PROJECT, "source.topic", plan.scenario().source().topic()),
            services.subscriptions().stream().map(s -> PubsubPaths.subscription(LocalJobs.PROJECT, "source.subscriptions", s)).toList());
      }
      cpu.watch("bigquery-emulator", bigQuery.pid());
      if (plan.backlog() > 0) {
        say("Publishing the backlog: %,d messages of %,d bytes", plan.backlog(), plan.messageSize());
        try (ChildJvm publisher = ChildJvm.start("publisher", heap, LocalServices.PUBLISHER_MAIN,
            services.backlogPublisherArgs(host, segment), segment.resolve("publisher.log"))) {
          cpu.watch("publisher", publisher.pid());
          publisher.requireSuccess(3_600);
        }
      }
      ChildJvm live = null;
      StoppedJobs stopped = new StoppedJobs(plan, host, sampler, segment);
      try {
        if (plan.liveMessages() > 0) {
          say("Publishing %,d live messages at %,.0f msg/s while the stages run", plan.liveMessages(), plan.rate());
          live = ChildJvm.start("live-publisher", heap, LocalServices.PUBLISHER_MAIN,
              services.livePublisherArgs(host, segment), segment.resolve("live-publisher.log"));
          cpu.watch("live-publisher", live.pid());
        }
        if (first > 0) {
          warmUp(plan.runningBefore(first), host, bigQuery, segment, cpu, sampler);
        }
        for (int k = first; k < plan.stages().size(); k++) {
          runStage(plan.stages().get(k), segmentNo, host, bigQuery, segment, cpu, sampler, stopped);
        }
        sampler.follow("", Map.of());
        if (live != null) {
          awaitLivePublisher(live);
        }
        for (String job : plan.stages().get(plan.stages().size() - 1).running()) {
          if (running.stop(job, segment)) {
            stopped.stopped(job);
          }
        }
        verify(stopped, sampler);
      } finally {
        if (live != null) {
          live.close();
        }
      }
    }
    for (Finding f : verdict.failuresFirst()) {
      say("%s %s", f.kind() == Finding.Kind.UNVERIFIED ? "Not verified:" : "Verification failed:", f.line());
    }
    if (verdict.passed()) {
      say("Verified: every job of every stage accounted for every message it was given, or left it in its source");
    }
    return verdict.exitCode();
  }

  /** Waits for the live publisher to publish all it was asked to, so every job is judged on the same count. */
  private void awaitLivePublisher(ChildJvm live) throws InterruptedException {
    long deadline = System.nanoTime() + LIVE_FINISH_MAX.toNanos();
    if (live.isAlive()) {
      say("Waiting for the live publisher to finish (max %s) before the jobs are verified", Durations.show(LIVE_FINISH_MAX));
    }
    while (live.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(500);
    }
    // Still publishing: closed by the caller; with no result file, the jobs are reported as not verified.
  }

  /**
   * Every job that ran in this segment, judged once all have stopped, with the last stage it ran in:
   * published, accounted for, left in its source (read), lost. A job that ran only in an earlier,
   * interrupted segment is not judged (its emulator is gone).
   */
  private void verify(StoppedJobs stopped, ScenarioSampler sampler) throws Exception {
    Long published = stopped.published();
    boolean pubsubWait = !plan.kafka();
    boolean lost = false;
    for (String job : stopped.jobs()) {
      if (pubsubWait) {
        say("Counting what each job left in its subscription (after its messages' %d s ack deadline)",
            StoppedJobs.RETURN_SECONDS);
        pubsubWait = false;
      }
      String stage = lastStage(job);
      JobCounts counts = stopped.count(stage, job, labels.get(job).get("write_method").equals("exactly-once"), published);
      lost |= verdict.judge(counts).stream().anyMatch(f -> f.kind() == Finding.Kind.LOST);
      ResultRecords records = StoppedJobs.records(new ResultRecords(new ResultRecords.Step(run.runId(), run.scenario(),
          run.target(), 1, stage, Instant.now().toString())), counts, labels.get(job));
      dir.replaceResults(r -> r.stage().equals(stage) && r.job().equals(job) && r.iteration() == 1
          && ResultRecords.VERIFICATION_METRICS.contains(r.metric()), records.records());
      say("Job %s (last stage %s): published %,d, accounted for %,d, duplicates %,d, dead-lettered %,d, left %s, lost %s",
          job, stage, counts.published(), counts.accountedFor(), counts.duplicates(), counts.deadLettered(),
          counts.left() == null ? "not counted" : String.format(Locale.ROOT, "%,d", counts.left()),
          counts.unverified() == null ? String.format(Locale.ROOT, "%,d", counts.lost()) : "not known");
    }
    for (String job : plan.stagedJobs()) {
      if (!stopped.ran(job)) {
        verdict.add(new Finding(lastStage(job), job, Finding.Kind.UNVERIFIED, "it ran only in an earlier segment, which"
            + " was interrupted before its jobs were verified (that segment's emulators are gone); --restart runs"
            + " the scenario again from the start"));
      }
    }
    String unfinished = lost ? UnfinishedStreams.sentence(sampler.status()) : null;
    if (unfinished != null) {
      say("%s. A job a stage stops is cancelled: under exactly-once the rows it had appended and not yet flushed are"
          + " lost with it, although their messages were acknowledged (docs/scenarios.md, 'Stopping a job')", unfinished);
    }
  }

  /** The last stage {@code job} runs in. */
  private String lastStage(String job) {
    String last = null;
    for (PlannedStage st : plan.stages()) {
      if (st.running().contains(job)) {
        last = st.name();
      }
    }
    return last;
  }

  private void warmUp(List<String> warm, String host, BigQueryEmulatorProcess bigQuery, Path segment,
      ProcessCpuSampler cpu, ScenarioSampler sampler) throws Exception {
    say("Restarting %s, which ran before this stage, and waiting until steady (max %s; not measured)", warm,
        Durations.show(warmUpMax));
    for (String job : warm) {
      jobs.start(job, host, bigQuery.address(), segment, cpu);
    }
    sampler.follow("resume-warm-up", pids(warm));
    long since = Instant.now().getEpochSecond();
    long deadline = System.nanoTime() + warmUpMax.toNanos();
    while (System.nanoTime() < deadline) {
      Thread.sleep(1_000);
      long now = Instant.now().getEpochSecond();
      List<ScenarioSample> samples = sampler.samples();
      boolean ready = true;
      for (String job : warm) {
        ready &= jobs.ended(job).isPresent() || OnlineSteady.reached(samples, job, since, now);
      }
      if (ready) {
        return;
      }
    }
    say("The restarted jobs were not steady after %s; going on", Durations.show(warmUpMax));
  }

  private Map<String, LongSupplier> pids(List<String> names) {
    Map<String, LongSupplier> pids = new LinkedHashMap<>();
    names.forEach(j -> pids.put(j, () -> jobs.pid(j)));
    return pids;
  }

  private void runStage(PlannedStage st, int segmentNo, String host, BigQueryEmulatorProcess bigQuery, Path segment,
      ProcessCpuSampler cpu, ScenarioSampler sampler, StoppedJobs stopped) throws Exception {
    int n = plan.stages().size();
    if (st.isLoadTest()) {
      sampler.follow(st.name(), pids(st.running()));
      say("Stage %d/%d %s: a Pub/Sub load test against the run's emulator, with %s running: %s", st.index() + 1, n,
          st.name(), st.running(), st.condition());
      LoadTestStage.Outcome outcome = LoadTestStage.run(st, run, host, plan.scenario().source().topic(), dir.root(),
          segmentNo, runLabels());
      dir.finish(outcome.status(), outcome.records());
      if (outcome.exit() != ExitCodes.OK) {
        verdict.add(new Finding(st.name(), LoadTestStage.JOB, Finding.Kind.LOAD_TEST, "the load test did not receive"
            + " every message it published (exit " + outcome.exit() + "); see " + outcome.directory().resolve("report.md")));
      }
      say("Stage %s done%s; its report: %s", st.name(), outcome.exit() == ExitCodes.OK ? ""
          : " (not every message accounted for: see the report)", outcome.directory().resolve("report.md"));
      return;
    }
    Instant started = Instant.now();
    try {
      for (String job : st.stop()) {
        if (jobs.stop(job, segment)) {
          stopped.stopped(job);
        }
      }
      for (String job : st.start()) {
        jobs.start(job, host, bigQuery.address(), segment, cpu);
      }
    } catch (IOException e) {
      throw new IOException("stage " + st.name() + ": " + e.getMessage(), e);
    }
    sampler.follow(st.name(), pids(st.running()));
    say("Stage %d/%d %s: %s%s%s running; %s", st.index() + 1, n, st.name(),
        st.start().isEmpty() ? "" : "started " + st.start() + ", ",
        st.stop().isEmpty() ? "" : "stopped " + st.stop() + ", ", st.running(), st.condition());
    long startSecond = started.getEpochSecond() + 1;
    Map<String, Instant> drainedAt = new LinkedHashMap<>();
    Set<String> drained = drainedAt.keySet();
    boolean met = false;
    long lastProgress = System.nanoTime();
    while (true) {
      Thread.sleep(1_000);
      long now = Instant.now().getEpochSecond();
      Duration elapsed = Duration.between(started, Instant.now());
      if (sampler.problem() != null) {
        throw new IOException("stage " + st.name() + ": the BigQuery emulator stopped answering: " + sampler.problem());
      }
      for (String job : st.running()) {
        OptionalInt exit = jobs.ended(job);
        if (exit.isPresent() && !drained.contains(job)) {
          drainedAt.put(job, Instant.now());
          EmulatorStatus.Job status = sampler.job(job);
          if (exit.getAsInt() != ExitCodes.OK || status.accountedFor() < plan.messages()) {
            throw new IOException(String.format(Locale.ROOT,
                "stage %s: job %s's consumer ended (exit %d) with %,d of %,d messages accounted for; see %s",
                st.name(), job, exit.getAsInt(), status.accountedFor(), plan.messages(), segment.resolve(job + ".log")));
          }
          say("Job %s has read every message of its subscription (%,d) and stopped", job, plan.messages());
        }
      }
      List<ScenarioSample> samples = sampler.samples();
      if (st.hold() != null) {
        met = elapsed.compareTo(st.hold()) >= 0;
      } else if (st.until().equals("drained")) {
        met = drained.containsAll(st.running());
      } else {
        met = st.running().stream().allMatch(j -> drained.contains(j) || OnlineSteady.reached(samples, j, startSecond, now));
      }
      if (met) {
        break;
      }
      if (st.max() != null && elapsed.compareTo(st.max()) >= 0) {
        say("Stage %s: not %s after max %s; going on", st.name(), st.until(), Durations.show(st.max()));
        break;
      }
      if (System.nanoTime() - lastProgress >= PROGRESS_EVERY_SECONDS * 1_000_000_000L) {
        lastProgress = System.nanoTime();
        progress(st, elapsed, samples, now);
      }
    }
    Instant ended = Instant.now();
    finishStage(st, segmentNo, started, ended, met, sampler, idleJobs(st, drainedAt, ended));
  }

  /**
   * The jobs that had nothing left to read for part of a stage that holds or waits until steady, with
   * for how long: such a stage does not measure what it is for (a drain is what {@code until:
   * drained} waits for, so it is never idle).
   */
  private static Map<String, Long> idleJobs(PlannedStage st, Map<String, Instant> drainedAt, Instant ended) {
    Map<String, Long> idle = new LinkedHashMap<>();
    if ("drained".equals(st.until())) {
      return idle;
    }
    drainedAt.forEach((job, at) -> {
      long seconds = Duration.between(at, ended).getSeconds();
      if (seconds > IDLE_TOLERANCE_SECONDS) {
        idle.put(job, seconds);
      }
    });
    return idle;
  }

  private void progress(PlannedStage st, Duration elapsed, List<ScenarioSample> samples, long now) {
    List<String> rates = new ArrayList<>();
    for (String job : st.running()) {
      long rows = samples.stream().filter(s -> s.job().equals(job) && s.epochSecond() > now - PROGRESS_EVERY_SECONDS)
          .mapToLong(ScenarioSample::rows).sum();
      rates.add(String.format(Locale.ROOT, "%s %,.0f rows/s", job, rows / (double) PROGRESS_EVERY_SECONDS));
    }
    say("%s", RunLog.stageProgress(plan, st, elapsed, rates));
  }

  private void finishStage(PlannedStage st, int segmentNo, Instant started, Instant ended, boolean met,
      ScenarioSampler sampler, Map<String, Long> idle) throws IOException {
    MeasuredStage measured = MeasuredStage.of(sampler.samples(), st, started, ended);
    // A job's verification comes once it has stopped (verify): while it runs, what it has not read yet
    // is neither lost nor left.
    ResultRecords records = measured.records(run, run.vcpus(), labels, runLabels());
    idle.forEach((job, seconds) -> records.idle(job, seconds, labels.get(job)));
    dir.finish(measured.status(met, segmentNo), records.records());
    say("%s", measured.summary());
    idle.forEach((job, seconds) -> {
      String why = String.format(Locale.ROOT, "job %s had nothing left to read for the last %d s of the %d s stage:"
          + " the stage does not measure what it is for, and the report draws no comparison or verdict from it;"
          + " give the jobs more to read (publish.messages, publish.rate, or a larger --scale)", job, seconds,
          Duration.between(started, ended).getSeconds());
      verdict.add(new Finding(st.name(), job, Finding.Kind.STAGE_PURPOSE, why));
      say("Stage %s: %s", st.name(), why);
    });
  }

  /** The labels of figures that belong to the run, not to one job. */
  private Map<String, String> runLabels() {
    return Map.of("scale", Double.toString(plan.scale()), "machine", run.machine());
  }

  static void say(String format, Object... args) {
    RunLog.say(format, args);
  }
}
