package dev.ingestbench.dataflow;

import static dev.ingestbench.harness.staged.RunLog.say;

import dev.ingestbench.analysis.diagnosis.Diagnoser;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.harness.spec.JobLabels;
import dev.ingestbench.harness.staged.PlannedRun;
import dev.ingestbench.harness.staged.RunDirectory;
import dev.ingestbench.harness.staged.StageTarget;
import dev.ingestbench.harness.staged.StagedDriver;
import dev.ingestbench.harness.staged.Ticker;
import dev.ingestbench.scenario.Durations;
import dev.ingestbench.scenario.JobConfig;
import dev.ingestbench.scenario.PlannedStage;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Dataflow target of a staged scenario: creates what is missing, publishes the backlog with the
 * publisher's Flex Template (and the live messages, if any, while the stages run), launches the
 * jobs a stage starts from the consumer's Flex Template and waits until they run, cancels or drains
 * the jobs it stops, and polls every job's counters. {@link StagedDriver} sequences, measures and
 * judges the stages. Every job still running at the end, on a failure or on Ctrl-C is cancelled;
 * {@code dataflow_jobs.jsonl} lists every job launched.
 *
 * <p>A rerun resumes at the first stage without a marker. The subscriptions keep their backlog, so
 * it is not published again; the jobs that ran before that stage are launched again and given until
 * they are steady (a warm-up, not measured).
 */
public final class DataflowTarget implements StageTarget, PlannedRun {
  /**
   * How long a resumed run waits for the jobs it starts again to be steady, unless --warm-up-max
   * says.
   */
  public static final Duration DEFAULT_WARM_UP_MAX = Duration.ofMinutes(10);

  private final ScenarioPlan plan;
  private final Duration warmUpMax;
  private final RunDirectory dir;
  private final ScenarioRun run;
  private final GcpSettings target;
  private final DataflowLaunches launches;

  private final GcpResources resources;
  private final Map<String, Map<String, String>> labels = new LinkedHashMap<>();

  /** The run's Dataflow jobs, once it runs. */
  private DataflowJobControl jobs;

  public DataflowTarget(
      ScenarioPlan plan,
      RunDirectory dir,
      ScenarioRun run,
      GcpSettings target,
      Duration warmUpMax) {
    this.plan = plan;
    this.warmUpMax = warmUpMax;
    this.dir = dir;
    this.run = run;
    this.target = target;
    this.launches = new DataflowLaunches(plan, target, run.runId());
    this.resources = new GcpResources(plan, target, launches);
    for (String job : plan.jobs().keySet()) {
      JobConfig config = plan.jobs().get(job);
      Map<String, String> l =
          new LinkedHashMap<>(
              JobLabels.of(
                  launches.consumerConfig(job),
                  plan.messageSize(),
                  config.workers(),
                  config.machineType()));
      l.putAll(JobLabels.run(plan.scale(), "dataflow " + target.region()));
      labels.put(job, l);
    }
  }

  @Override
  public Map<String, Map<String, String>> resultLabels() {
    return labels;
  }

  /** --dry-run: every action, as the gcloud and bq commands that would do the same by hand. */
  @Override
  public void describe(PrintStream out) {
    int first = driver().firstUnfinished();
    String p = target.project();
    String r = target.region();
    out.println(
        "Would run "
            + plan.scenario().name()
            + " on Dataflow in "
            + p
            + " ("
            + r
            + ") into "
            + dir.root()
            + "; the same steps by hand:");
    out.println("  # what is missing is created (each skipped when it exists):");
    resources.commands().forEach(c -> out.println("  " + c));
    if (plan.backlog() > 0) {
      out.println(
          String.format(
              Locale.ROOT,
              "  # publish the backlog (%,d messages) and wait until the job is done:",
              plan.backlog()));
      out.println("  " + launches.backlogPublisher(1).gcloud(p, r));
    }
    if (plan.liveMessages() > 0) {
      out.println(
          String.format(
              Locale.ROOT,
              "  # publish %,d live messages at %,.0f msg/s while the stages run:",
              plan.liveMessages(),
              plan.rate()));
      out.println("  " + launches.livePublisher(1).gcloud(p, r));
    }
    if (first > 0) {
      out.println(
          "  # skip stages 1-"
              + first
              + " (finished); launch "
              + plan.runningBefore(first)
              + " again and wait until steady (max "
              + Durations.show(warmUpMax)
              + ")");
    }
    for (int k = first; k < plan.stages().size(); k++) {
      PlannedStage st = plan.stages().get(k);
      out.println(
          String.format(
              Locale.ROOT, "  # stage %d/%d %s:", k + 1, plan.stages().size(), st.name()));
      for (String job : st.stop()) {
        out.println(
            "  gcloud dataflow jobs "
                + (st.stopWith() == null ? target.stopWith() : st.stopWith()).flag()
                + " JOB_ID_OF_"
                + job.toUpperCase(Locale.ROOT)
                + " --project="
                + p
                + " --region="
                + r);
      }
      for (String job : st.start()) {
        out.println("  " + launches.consumer(job, 1).gcloud(p, r));
      }
      out.println(
          "  # "
              + st.condition()
              + " with "
              + st.running()
              + " running (job counters read every "
              + Durations.show(target.pollInterval())
              + "); then measure and write status/"
              + st.marker()
              + ".json");
    }
    out.println(
        "  # cancel every job still running; read WRITE_API_TIMELINE (BigQuery) and vCPUs and connections"
            + " (Cloud Monitoring); write report.md and results.jsonl");
  }

  /**
   * Runs the unfinished stages with {@link StagedDriver}, then reads Google Cloud's account of the
   * run; returns the driver's exit code.
   */
  @Override
  public int run() throws Exception {
    jobs =
        new DataflowJobControl(
            new DataflowJobs(target.dataflow(), target.project(), target.region()),
            new DataflowJobLog(dir.root()),
            target);
    int exit = driver().run();
    collect();
    return exit;
  }

  private StagedDriver driver() {
    return new StagedDriver(plan, dir, run, this, warmUpMax, Ticker.system(), labels);
  }

  /**
   * Monitoring's concurrent connections are per project: collected after the run, not per job and
   * stage.
   */
  @Override
  public Measures measures() {
    return Measures.ALL_BUT_CONNECTIONS;
  }

  @Override
  public Segment open(int segmentNo, Path segmentDir) throws Exception {
    jobs.cancelLeftovers();
    for (String created : resources.ensure()) {
      say("Created %s", created);
    }
    return new DataflowSegment(segmentNo, plan, dir, target, launches, jobs).start();
  }

  /** Google Cloud's account of the run, with the scenario's shape for the timeline's diagnosis. */
  private void collect() throws IOException {
    List<String> tables = dataTables();
    int workers =
        plan.jobs().values().stream()
            .mapToInt(j -> j.workers() == null ? 0 : j.workers())
            .max()
            .orElse(0);
    boolean pooled =
        plan.jobs().values().stream().anyMatch(j -> Boolean.TRUE.equals(j.connectionPool()));
    new GcpCollect(
            target,
            dir,
            run,
            new Diagnoser.Topology(tables.size(), workers, plan.jobs().size(), pooled, 0))
        .collect(tables, jobs.log().all());
  }

  /** The run's data tables, for reading their timeline afterwards. */
  public List<String> dataTables() {
    return resources.tables().keySet().stream().filter(t -> !t.endsWith("_dlq")).toList();
  }
}
