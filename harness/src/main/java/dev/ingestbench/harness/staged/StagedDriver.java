package dev.ingestbench.harness.staged;

import dev.ingestbench.analysis.scenario.OnlineSteady;
import dev.ingestbench.analysis.scenario.ResultRecords;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.harness.spec.JobLabels;
import dev.ingestbench.scenario.Durations;
import dev.ingestbench.scenario.PlannedStage;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.scenario.Until;
import dev.ingestbench.verification.Finding;
import dev.ingestbench.verification.Verdict;
import dev.ingestbench.verification.VerificationPolicy;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Runs an ordered scenario's unfinished stages on a {@link StageTarget}, the same way on every
 * target: stop and start each stage's jobs, hold or wait for its condition, measure it, mark it
 * done; then stop every job, verify each one by the one {@link VerificationPolicy} and return its
 * exit code.
 *
 * <p>A rerun resumes at the first stage without a marker, in a new segment: the target starts
 * afresh, so the jobs that ran before that stage are started again and warmed up (not measured)
 * first.
 */
public final class StagedDriver {
  private static final long PROGRESS_EVERY_SECONDS = 10;

  /**
   * A job's consumer stops a few seconds after it has read everything: idle up to this is not a
   * finding.
   */
  private static final long IDLE_TOLERANCE_SECONDS = 5;

  private static final Duration TICK = Duration.ofSeconds(1);

  private final ScenarioPlan plan;
  private final RunDirectory dir;
  private final ScenarioRun run;
  private final StageTarget target;
  private final Duration warmUpMax;
  private final Ticker ticker;
  private final Map<String, Map<String, String>> labels;
  private final Verdict verdict;

  /** Who runs the stages that start no job; none until given. */
  private StageExecutors executors = StageExecutors.NONE;

  /** The prefix of every line it prints: {@code run}, or {@code round} when it runs a round. */
  private String voice = "run";

  /**
   * @param labels every job's settings as result labels; {@code write_method} decides whether
   *     duplicates fail it
   */
  public StagedDriver(
      ScenarioPlan plan,
      RunDirectory dir,
      ScenarioRun run,
      StageTarget target,
      Duration warmUpMax,
      Ticker ticker,
      Map<String, Map<String, String>> labels) {
    this.plan = plan;
    this.dir = dir;
    this.run = run;
    this.target = target;
    this.warmUpMax = warmUpMax;
    this.ticker = ticker;
    this.labels = labels;
    this.verdict = new Verdict(new VerificationPolicy(plan.maxDeadLetters()));
  }

  /**
   * Prints its lines as {@code [voice]}: a round's are {@code [round]}, like the rest of a round's
   * output.
   */
  public StagedDriver speakingAs(String voice) {
    this.voice = voice;
    return this;
  }

  /** Runs the plan's load-test and max-rate stages with these executors. */
  public StagedDriver withExecutors(StageExecutors executors) {
    this.executors = executors;
    return this;
  }

  /** The first stage without a marker: where a (re)run begins. */
  public int firstUnfinished() {
    int k = 0;
    while (k < plan.stages().size() && dir.isDone(plan.stages().get(k).marker())) {
      k++;
    }
    return k;
  }

  /**
   * Runs the unfinished stages and verifies the jobs; returns the verification policy's exit code.
   */
  public int run() throws Exception {
    int first = firstUnfinished();
    if (first == plan.stages().size()) {
      say(
          "Every stage is finished already (status/ in %s); the report is rewritten. --restart runs it again.",
          dir.root());
      return ExitCodes.OK;
    }
    int segmentNo = dir.nextSegment();
    if (first > 0) {
      say(
          "Resuming at stage %d/%d %s: stages 1-%d are finished and skipped",
          first + 1, plan.stages().size(), plan.stages().get(first).name(), first);
    }
    Set<String> stopped = new LinkedHashSet<>();
    try (StageTarget.Segment segment = target.open(segmentNo, dir.segment(segmentNo))) {
      if (first > 0) {
        warmUp(segment, plan.runningBefore(first));
      }
      for (int k = first; k < plan.stages().size(); k++) {
        runStage(segment, plan.stages().get(k), segmentNo, stopped);
      }
      segment.follow("", List.of());
      segment.awaitPublished();
      for (String job : plan.stages().get(plan.stages().size() - 1).running()) {
        if (segment.stopJob("the scenario's end", job, null)) {
          stopped.add(job);
        }
      }
      new JobVerification(plan, dir, run, ticker, labels, verdict, RunLog.lines(voice))
          .verify(segment, stopped);
    }
    for (Finding f : verdict.failuresFirst()) {
      say("%s %s", f.heading(), f.line());
    }
    if (verdict.passed()) {
      say(
          "Verified: every job of every stage accounted for every message it was given, or left it in its source");
    }
    return verdict.exitCode();
  }

  /** What the run found: every failure and what could not be verified. */
  public Verdict verdict() {
    return verdict;
  }

  private void warmUp(StageTarget.Segment segment, List<String> warm) throws Exception {
    say(
        "Restarting %s, which ran before this stage, and waiting until steady (max %s; not measured)",
        warm, Durations.show(warmUpMax));
    for (String job : warm) {
      segment.startJob("resume-warm-up", job);
    }
    segment.follow("resume-warm-up", warm);
    long since = ticker.now().getEpochSecond();
    Instant deadline = ticker.now().plus(warmUpMax);
    Set<String> ended = new HashSet<>(); // read no more: the stage that follows checks its exit
    while (ticker.now().isBefore(deadline)) {
      ticker.sleep(TICK);
      long now = ticker.now().getEpochSecond();
      List<ScenarioSample> samples = segment.samples();
      boolean ready = true;
      for (String job : warm) {
        if (ended.contains(job) || OnlineSteady.reached(samples, job, since, now)) {
          continue;
        }
        try {
          if (segment.read(job).exit().isPresent()) {
            ended.add(job);
            continue;
          }
        } catch (IOException e) {
          throw new IOException("the resumed run's warm-up: " + e.getMessage(), e);
        }
        ready = false;
      }
      if (ready) {
        return;
      }
    }
    say("The restarted jobs were not steady after %s; going on", Durations.show(warmUpMax));
  }

  private void runStage(
      StageTarget.Segment segment, PlannedStage st, int segmentNo, Set<String> stopped)
      throws Exception {
    int n = plan.stages().size();
    if (st.isMaxRateSearch() || st.isLoadTest()) {
      runJoblessStage(segment, st, segmentNo);
      return;
    }
    Instant started = ticker.now();
    try {
      segment.stageStarting(st);
      for (String job : st.stop()) {
        if (segment.stopJob(st.name(), job, st.stopWith())) {
          stopped.add(job);
        }
      }
      for (String job : st.start()) {
        segment.startJob(st.name(), job);
      }
    } catch (IOException e) {
      throw new IOException("stage " + st.name() + ": " + e.getMessage(), e);
    }
    segment.follow(st.name(), st.running());
    say(
        "Stage %d/%d %s: %s%s%s running; %s",
        st.index() + 1,
        n,
        st.name(),
        st.start().isEmpty() ? "" : "started " + st.start() + ", ",
        st.stop().isEmpty() ? "" : "stopped " + st.stop() + ", ",
        st.running(),
        st.condition());
    long startSecond = started.getEpochSecond() + 1;
    RunningJobs jobs = new RunningJobs(st, this::say);
    Map<String, Instant> drainedAt = jobs.drainedAt();
    boolean met;
    Instant lastProgress = started;
    while (true) {
      ticker.sleep(TICK);
      Instant nowInstant = ticker.now();
      long now = nowInstant.getEpochSecond();
      Duration elapsed = Duration.between(started, nowInstant);
      try {
        segment.tick();
      } catch (IOException e) {
        throw new IOException("stage " + st.name() + ": " + e.getMessage(), e);
      }
      List<ScenarioSample> samples = segment.samples();
      jobs.read(segment, nowInstant);
      if (st.hold() != null) {
        met = elapsed.compareTo(st.hold()) >= 0;
      } else if (st.until() == Until.DRAINED) {
        met = drainedAt.keySet().containsAll(st.running());
      } else {
        met =
            st.running().stream()
                .allMatch(
                    j ->
                        drainedAt.containsKey(j)
                            || OnlineSteady.reached(samples, j, startSecond, now));
      }
      if (met) {
        break;
      }
      if (st.max() != null && elapsed.compareTo(st.max()) >= 0) {
        say(
            "Stage %s: not %s after max %s; going on",
            st.name(), st.until(), Durations.show(st.max()));
        break;
      }
      if (target.measures() != StageTarget.Measures.NOTHING
          && Duration.between(lastProgress, nowInstant).getSeconds() >= PROGRESS_EVERY_SECONDS) {
        lastProgress = nowInstant;
        progress(st, elapsed, samples, now);
      }
    }
    Instant ended = ticker.now();
    finishStage(segment, st, segmentNo, started, ended, met, idleJobs(st, drainedAt, ended));
  }

  /** A stage that starts no job: run by the executor of its kind, beside the jobs running. */
  private void runJoblessStage(StageTarget.Segment segment, PlannedStage st, int segmentNo)
      throws Exception {
    segment.stageStarting(st); // what the stage before injected (kills, a stepped rate) ends here
    segment.follow(st.name(), st.running());
    boolean search = st.isMaxRateSearch();
    if (search) {
      say(
          "Stage %d/%d %s: the highest rate job %s's settings sustain, on servers of its own, with %s running",
          st.index() + 1,
          plan.stages().size(),
          st.name(),
          st.search().job(),
          st.running().isEmpty() ? "no job" : String.join(", ", st.running()));
    } else {
      say(
          "Stage %d/%d %s: a Pub/Sub load test against the run's emulator, with %s running: %s",
          st.index() + 1, plan.stages().size(), st.name(), st.running(), st.condition());
    }
    LoadTestStage.Outcome outcome = executors.run(st, segmentNo);
    dir.finish(outcome.status(), outcome.records());
    outcome.findings().forEach(verdict::add);
    say(
        "Stage %s done%s; its report: %s",
        st.name(),
        outcome.findings().isEmpty()
            ? ""
            : search
                ? " (see its findings below)"
                : " (not every message accounted for: see the report)",
        outcome.directory().resolve("report.md"));
  }

  /**
   * The jobs that had nothing left to read for part of a stage that holds or waits until steady,
   * with for how long: such a stage does not measure what it is for (a drain is what {@code until:
   * drained} waits for, so it is never idle).
   */
  private static Map<String, Long> idleJobs(
      PlannedStage st, Map<String, Instant> drainedAt, Instant ended) {
    Map<String, Long> idle = new LinkedHashMap<>();
    if (st.until() == Until.DRAINED) {
      return idle;
    }
    drainedAt.forEach(
        (job, at) -> {
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
      long rows =
          samples.stream()
              .filter(s -> s.job().equals(job) && s.epochSecond() > now - PROGRESS_EVERY_SECONDS)
              .mapToLong(ScenarioSample::rows)
              .sum();
      rates.add(
          String.format(
              Locale.ROOT, "%s %,.0f rows/s", job, rows / (double) PROGRESS_EVERY_SECONDS));
    }
    say("%s", RunLog.stageProgress(plan, st, elapsed, rates));
  }

  private void finishStage(
      StageTarget.Segment segment,
      PlannedStage st,
      int segmentNo,
      Instant started,
      Instant ended,
      boolean met,
      Map<String, Long> idle)
      throws IOException {
    MeasuredStage measured = MeasuredStage.of(segment.samples(), st, started, ended);
    // A job's verification comes once it has stopped (verify): while it runs, what it has not read
    // yet
    // is neither lost nor left.
    ResultRecords records = measured.records(run, run.vcpus(), labels, runLabels());
    idle.forEach((job, seconds) -> records.idle(job, seconds, labels.get(job)));
    dir.finish(
        measured.status(met, segmentNo),
        target.measures() == StageTarget.Measures.NOTHING
            ? List.of()
            : records.records().stream()
                // A target that counts connections per project only has them collected after the
                // run.
                .filter(
                    r ->
                        target.measures() == StageTarget.Measures.EVERY_JOB_FIGURE
                            || !r.metric().equals("peak_connections"))
                .toList());
    if (target.measures() != StageTarget.Measures.NOTHING) {
      say("%s", measured.summary());
    }
    idle.forEach(
        (job, seconds) -> {
          String why =
              String.format(
                  Locale.ROOT,
                  "had nothing left to read for the last %d s of the %d s stage:"
                      + " the stage does not measure what it is for, and the report draws no comparison or verdict from it;"
                      + " give the jobs more to read (publish.messages, publish.rate, or a larger --scale)",
                  seconds,
                  Duration.between(started, ended).getSeconds());
          verdict.add(new Finding(st.name(), job, Finding.Kind.STAGE_PURPOSE, why));
          say("Stage %s: job %s %s", st.name(), job, why);
        });
  }

  /** The labels of figures that belong to the run, not to one job. */
  private Map<String, String> runLabels() {
    return JobLabels.run(plan.scale(), run.machine());
  }

  private void say(String format, Object... args) {
    RunLog.say(voice, format, args);
  }
}
