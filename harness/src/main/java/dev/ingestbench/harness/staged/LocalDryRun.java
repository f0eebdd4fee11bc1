package dev.ingestbench.harness.staged;

import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.source.LiveMessages;
import dev.ingestbench.harness.spec.MaxRateSpec;
import dev.ingestbench.harness.stack.LocalStack;
import dev.ingestbench.scenario.Durations;
import dev.ingestbench.scenario.PlannedStage;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.scenario.StageFaults;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code --dry-run} of a local run, a scenario's or a round's: every step in order with the command
 * line of every process, read from what the run itself executes (the plan's stages, the segment's
 * {@link SegmentShape}, each job's consumer from its {@link ConsumerPlan}); nothing is started and
 * nothing written. Addresses that exist only once the servers run are placeholders ({@code
 * PUBSUB_HOST}, {@code KAFKA_BOOTSTRAP}, {@code BQ_GRPC}, {@code BQ_REST}, {@code FLINK_MASTER}).
 */
public final class LocalDryRun {
  /** The BigQuery emulator's addresses in the consumers' command lines. */
  public static final BigQueryEmulatorProcess.Address BIGQUERY =
      new BigQueryEmulatorProcess.Address("BQ_GRPC", "BQ_REST");

  private final ScenarioPlan plan;
  private final SegmentShape shape;
  private final ConsumerPlan consumers;

  /** Say what a stage that starts no job (a load test, a max-rate search) would do. */
  private final StageExecutors others;

  /** What the target measures while a stage runs: a round, nothing (it is analysed afterwards). */
  private final StageTarget.Measures measures;

  public LocalDryRun(
      ScenarioPlan plan,
      SegmentShape shape,
      ConsumerPlan consumers,
      StageExecutors others,
      StageTarget.Measures measures) {
    this.plan = plan;
    this.shape = shape;
    this.consumers = consumers;
    this.others = others;
    this.measures = measures;
  }

  /**
   * Prints the run from stage {@code first} on (the earlier ones finished), its servers' files in
   * {@code segment}.
   *
   * @param what what runs: the scenario's name, {@code a round}
   * @param warmUpMax how long a resumed run waits for the jobs it restarts
   */
  public void print(
      PrintStream out, String what, Path root, Path segment, int first, Duration warmUpMax) {
    out.println("Would run " + what + " locally into " + root + ":");
    printOpening(out, segment);
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
      if (st.isMaxRateSearch() || st.isLoadTest()) {
        others.describe(st, out);
      } else {
        describeJobs(st, segment, out);
      }
    }
    printClosing(out, segment);
  }

  /** The steps after the last stage: how the jobs end, their verification, the servers' stop. */
  private void printClosing(PrintStream out, Path segment) {
    ScenarioSource source = shape.source();
    out.println(
        "  "
            + shape.jobsEnd()
            + "; count what each left in its "
            + source.leftIn()
            + " and verify it (lost = published - accounted for - left)");
    List<String> writes = shape.writes();
    out.println(
        "  stop the "
            + source.serverName()
            + (shape.stack(segment).bigQueryEmulatorArgs() != null
                ? " and the BigQuery emulator"
                : "")
            + "; write "
            + String.join(", ", writes.subList(0, writes.size() - 1))
            + " and "
            + writes.get(writes.size() - 1));
  }

  /**
   * The steps before the first stage, from what {@link LocalSegment#start} starts and publishes:
   * the shape's servers, its feed or its topic and backlog, and what this JVM publishes.
   */
  private void printOpening(PrintStream out, Path segment) {
    LocalStack.Spec servers = shape.stack(segment);
    servers.runner().describeStart().ifPresent(line -> out.println("  " + line));
    out.println(servers.source().startStep());
    if (servers.bigQueryEmulatorArgs() != null) {
      out.println(
          "  start the BigQuery emulator: ingestbench bigquery-emulator "
              + String.join(" ", servers.bigQueryEmulatorArgs()));
    }
    ScenarioSource source = shape.source();
    OptionalLong fed = shape.feedsUpTo();
    if (fed.isPresent()) {
      source.describeFeed(out, fed.getAsLong(), segment);
    } else {
      source.describeTopic(out);
      if (shape.backlog() > 0) {
        out.println(
            String.format(
                Locale.ROOT,
                "  publish the backlog (%,d messages): ingestbench publish %s",
                shape.backlog(),
                String.join(
                    " ", shape.backlogPublisherArgs(source.addressPlaceholder(), segment))));
      }
    }
    shape.search().ifPresent(search -> printSearch(out, search));
    shape.live(segment).ifPresent(live -> printLive(out, live, source.clientName()));
  }

  /** The max-rate search's probes, which this JVM publishes once every job runs. */
  private static void printSearch(PrintStream out, MaxRateSpec s) {
    out.println(
        String.format(
            Locale.ROOT,
            "  measure this JVM's publisher alone (a topic nobody reads); then, once every job"
                + " runs, probe live rates from this JVM (at most %d probes of %d s, latency SLO"
                + " %,d ms, %d confirmation(s)), each message at its intended send time",
            s.maxProbes(),
            s.window().toSeconds(),
            s.latencySlo().toMillis(),
            s.confirmations()));
  }

  /** The live messages this JVM publishes, as {@link SegmentPublishing} will. */
  private static void printLive(PrintStream out, SegmentShape.LivePublishing live, String client) {
    LiveMessages.Load load = live.load();
    out.println(
        String.format(
            Locale.ROOT,
            "  %spublish %,d live messages (event indexes %,d-%,d) at %s msg/s%s%s from this JVM"
                + " with the %s, each at the time the rate means it to be sent%s; then write %s",
            live.afterBacklog() ? "once every job has accounted for the backlog, " : "",
            load.count(),
            load.first(),
            load.first() + load.count() - 1,
            Numbers.rate(load.rate()),
            load.profile() == null ? "" : " stepped through " + load.profile(),
            live.afterBacklog() ? "" : " during the stages,",
            client,
            live.scheduleToSink()
                ? ", telling the BigQuery emulator each step of the schedule"
                : "",
            live.result()));
  }

  private void describeJobs(PlannedStage st, Path segment, PrintStream out) {
    for (String job : st.stop()) {
      out.println("    stop job " + job + " (close its stdin; it writes its results and exits)");
    }
    for (String job : st.start()) {
      out.println(
          "    start job "
              + job
              + ": ingestbench consume "
              + String.join(
                  " ",
                  LocalJobs.args(
                      consumers.consumer(job, segment),
                      shape.source().addressPlaceholder(),
                      BIGQUERY,
                      Optional.empty(),
                      null)));
    }
    describeFaults(st, segment, out);
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
            + " running; then "
            + (measures == StageTarget.Measures.NOTHING ? "" : "measure and ")
            + "write status/"
            + st.marker()
            + ".json");
  }

  private void describeFaults(PlannedStage st, Path segment, PrintStream out) {
    StageFaults faults = st.faults();
    if (faults.killsConsumers()) {
      // Where each job's checkpoints go, JOB standing for its name.
      Path checkpoints =
          consumers.consumer(st.running().get(0), segment).checkpoints().resolveSibling("JOB");
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
                  : Durations.show(faults.crashEvery()) + " after each of its lives starts writing")
              + ", once it has written and completed a Flink checkpoint; start it again from that"
              + " checkpoint ("
              + checkpoints
              + ")");
    }
    if (faults.killsTaskManager()) {
      out.println(
          "    kill a TaskManager of the cluster (SIGKILL) "
              + Durations.show(faults.killTaskManagerAt())
              + " after every running job has written; Flink restores the jobs that lost tasks"
              + " from their last checkpoint, and a fresh TaskManager takes its place");
    }
    if (faults.savesAndRestores()) {
      out.println(
          "    stop each running job's consumer with a Flink savepoint "
              + Durations.show(faults.savepointAt())
              + " into the stage, once it has written (the mode on its standard input, then its"
              + " end), and start it again from that savepoint (--savepointPath)");
    }
  }
}
