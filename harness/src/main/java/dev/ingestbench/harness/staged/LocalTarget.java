package dev.ingestbench.harness.staged;

import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.process.ProcessLauncher;
import dev.ingestbench.harness.source.KafkaFeed;
import dev.ingestbench.harness.source.PubsubFeed;
import dev.ingestbench.harness.spec.FlinkClusterSpec;
import dev.ingestbench.scenario.Durations;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.scenario.ScenarioPlan.PlannedStage;
import dev.ingestbench.scenario.StageFaults;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * The local target of a staged scenario: one Pub/Sub emulator (or Kafka broker) and one BigQuery
 * emulator shared by every job, the backlog published when a segment opens (and live messages
 * during the stages), one consumer JVM per job. {@link StagedDriver} sequences, measures and judges
 * the stages.
 *
 * <p>Local servers keep no state between runs, so each segment publishes the backlog again.
 */
public final class LocalTarget implements StageTarget {
  /**
   * How long a resumed run waits for the jobs it starts again to be steady, unless --warm-up-max
   * says.
   */
  public static final Duration DEFAULT_WARM_UP_MAX = Duration.ofMinutes(2);

  private final ScenarioPlan plan;
  private final Duration warmUpMax;
  private final RunDirectory dir;
  private final ScenarioRun run;
  private final String heap;
  private final ScenarioSource source;
  private final LocalServices services;
  private final ScenarioConsumers consumers;
  private final LocalJobs jobs;
  private final FlinkClusterSpec cluster;
  private final Map<String, Map<String, String>> labels;

  /** Starts the publishers and the consumers (a test's scripted processes). */
  private final ProcessLauncher launcher;

  /** Runs the plan's max-rate stages (rounds of their own); none until given. */
  private MaxRateStages maxRates;

  /** The segment open now, whose source a load-test stage measures. */
  private LocalSegment current;

  /**
   * @param cluster the Flink cluster the jobs are submitted to ({@code --target flink}), or null
   *     for an embedded Flink in each job's JVM
   */
  public LocalTarget(
      ScenarioPlan plan,
      RunDirectory dir,
      ScenarioRun run,
      String heap,
      Duration warmUpMax,
      FlinkClusterSpec cluster) {
    this(plan, dir, run, heap, warmUpMax, cluster, ProcessLauncher.SYSTEM);
  }

  /** As above, its publishers and consumers started by {@code launcher}. */
  LocalTarget(
      ScenarioPlan plan,
      RunDirectory dir,
      ScenarioRun run,
      String heap,
      Duration warmUpMax,
      FlinkClusterSpec cluster,
      ProcessLauncher launcher) {
    this.plan = plan;
    this.launcher = launcher;
    this.cluster = cluster;
    this.warmUpMax = warmUpMax;
    this.dir = dir;
    this.run = run;
    this.heap = heap;
    this.source = ScenarioSource.of(plan);
    this.services = new LocalServices(plan, source, dir, cluster);
    long longest = plan.stages().stream().mapToLong(s -> s.longest().getSeconds()).sum();
    this.consumers = new ScenarioConsumers(plan, longest + warmUpMax.getSeconds() + 600, cluster);
    this.jobs = new LocalJobs(consumers, heap, cluster != null, launcher);
    this.labels = consumers.resultLabels(plan.jobs().keySet(), run.machine());
  }

  /** Every job's result labels: its settings as it runs, the run's scale and machine. */
  public Map<String, Map<String, String>> resultLabels() {
    return labels;
  }

  /** Who runs the plan's {@code find_max_rate} stages. */
  public LocalTarget withMaxRateStages(MaxRateStages stages) {
    this.maxRates = stages;
    return this;
  }

  /**
   * How a fed run publishes, for run.json's scaled values and the report (see {@link PubsubFeed},
   * {@link KafkaFeed}).
   */
  public static String feedNote(ScenarioPlan plan) {
    return ScenarioSource.of(plan).feedNote();
  }

  private StagedDriver driver() {
    return new StagedDriver(plan, dir, run, this, warmUpMax, Ticker.system(), labels)
        .withExecutors(new StageExecutors(this::loadTest, maxRates));
  }

  /** --dry-run: every action, with the command line of every process, and nothing started. */
  public void describe(PrintStream out) {
    int first = driver().firstUnfinished();
    Path segment = dir.root().resolve("segment-N");
    String pubsub = source.addressPlaceholder();
    BigQueryEmulatorProcess.Address bq = new BigQueryEmulatorProcess.Address("BQ_GRPC", "BQ_REST");
    out.println("Would run " + plan.scenario().name() + " locally into " + dir.root() + ":");
    if (cluster != null) {
      out.println(
          "  "
              + (cluster.external()
                  ? "check the Flink cluster at " + cluster.master() + " -> FLINK_MASTER"
                  : "start a Flink session cluster: a JobManager and "
                      + cluster.workers()
                      + " TaskManagers of "
                      + cluster.slots()
                      + " slots, each its own JVM, on free loopback ports -> FLINK_MASTER")
              + "; submit every job to it with parallelism "
              + cluster.jobParallelism());
    }
    out.println(source.describeServer());
    out.println(
        "  start the BigQuery emulator: ingestbench bigquery-emulator "
            + String.join(" ", services.bigQueryEmulatorArgs(segment)));
    source.describeTopic(out);
    if (plan.backlog() > 0 && !plan.fedLocally()) {
      out.println(
          String.format(
              Locale.ROOT,
              "  publish the backlog (%,d messages): ingestbench publish %s",
              plan.backlog(),
              String.join(" ", services.backlogPublisherArgs(pubsub, segment))));
    }
    if (plan.liveMessages() > 0) {
      out.println(
          String.format(
              Locale.ROOT,
              "  publish %,d live messages (event indexes %,d-%,d) at %s msg/s during the stages,"
                  + " from this JVM with the %s, each at the time the rate means it to be"
                  + " sent; then write %s",
              plan.liveMessages(),
              plan.backlog(),
              plan.backlog() + plan.liveMessages() - 1,
              Numbers.rate(plan.rate()),
              source.clientName(),
              segment.resolve(RunFiles.PUBLISHER_LIVE)));
    }
    if (first > 0) {
      out.println(
          "  skip stages 1-"
              + first
              + " (finished); restart "
              + plan.runningBefore(first)
              + " and wait until steady (max "
              + Durations.show(warmUpMax)
              + ")");
    }
    for (int k = first; k < plan.stages().size(); k++) {
      PlannedStage st = plan.stages().get(k);
      out.println(
          String.format(Locale.ROOT, "  stage %d/%d %s:", k + 1, plan.stages().size(), st.name()));
      if (st.isMaxRateSearch()) {
        if (maxRates != null) {
          maxRates.describe(st, out);
        } else {
          out.println("    (no max-rate stages on this target)");
        }
        continue;
      }
      if (st.isLoadTest()) {
        out.println(
            "    ingestbench pubsub-load "
                + String.join(
                    " ",
                    LoadTestStage.args(
                        st,
                        "PUBSUB_HOST",
                        plan.scenario().source().topic(),
                        LoadTestStage.directory(dir.root(), st)))
                + " (with "
                + st.running()
                + " running); then write status/"
                + st.marker()
                + ".json");
        continue;
      }
      for (String job : st.stop()) {
        out.println("    stop job " + job + " (close its stdin; it writes its results and exits)");
      }
      for (String job : st.start()) {
        out.println(
            "    start job "
                + job
                + ": ingestbench consume "
                + String.join(" ", consumers.args(job, pubsub, bq, segment, null)));
      }
      StageFaults faults = st.faults();
      if (faults.killsConsumers()) {
        out.println(
            "    kill each running job's consumer (SIGKILL) "
                + (faults.killConsumerAt() != null
                    ? Durations.show(faults.killConsumerAt())
                        + " into the stage"
                        + (faults.crashEvery() != null
                            ? ", then "
                                + Durations.show(faults.crashEvery())
                                + " after each later life starts writing"
                            : "")
                    : Durations.show(faults.crashEvery())
                        + " after each of its lives starts writing")
                + ", once it has written and completed a Flink checkpoint; start it again from that"
                + " checkpoint ("
                + ScenarioConsumers.flinkState(segment, "JOB")
                + ")");
      }
      if (faults.killsTaskManager()) {
        out.println(
            "    kill a TaskManager of the cluster (SIGKILL) "
                + Durations.show(faults.killTaskManagerAt())
                + " after every running job has written; Flink restores the jobs that lost tasks"
                + " from their last checkpoint, and a fresh TaskManager takes its place");
      }
      if (st.liveProfile() != null) {
        out.println(
            "    step the live rate through "
                + st.liveProfile()
                + " from the stage's start (1x = "
                + Numbers.rate(plan.rate())
                + " msg/s), then publish at 1x again");
      }
      out.println(
          "    "
              + st.condition()
              + " with "
              + st.running()
              + " running; then measure and write status/"
              + st.marker()
              + ".json");
    }
    out.println(
        "  stop every job; count what each left in its "
            + source.leftIn()
            + " and verify it (lost = published - accounted for - left)");
    out.println(
        "  stop the "
            + source.serverName()
            + " and the BigQuery emulator; write report.md and results.jsonl");
  }

  /** Runs the unfinished stages here; returns the verification policy's exit code. */
  public int run() throws Exception {
    return driver().run();
  }

  /**
   * A load-test stage: against the open segment's source, on a topic of its own ({@link
   * LoadTestStage}).
   */
  private LoadTestStage.Outcome loadTest(PlannedStage st, int segmentNo) throws Exception {
    return LoadTestStage.run(
        st,
        run,
        current.sourceHost(),
        plan.scenario().source().topic(),
        dir.root(),
        segmentNo,
        Map.of("scale", Double.toString(plan.scale()), "machine", run.machine()));
  }

  @Override
  public Segment open(int segmentNo, Path segment) throws Exception {
    current =
        new LocalSegment(plan, heap, services, jobs, cluster != null, launcher, segment).start();
    return current;
  }

  public static void say(String format, Object... args) {
    RunLog.say(format, args);
  }
}
