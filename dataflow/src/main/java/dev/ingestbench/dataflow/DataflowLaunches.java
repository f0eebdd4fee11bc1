package dev.ingestbench.dataflow;

import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.consumer.ConsumerPipeline;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.harness.spec.ChildFlag;
import dev.ingestbench.harness.spec.ChildFlags;
import dev.ingestbench.harness.spec.JobSettings;
import dev.ingestbench.scenario.JobConfig;
import dev.ingestbench.scenario.ScenarioPlan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Flex Template launches of a scenario on Dataflow: one consumer job per scenario job (its
 * consumer flags as template parameters, {@code workers} x {@code machine_type} as a fixed pool,
 * Streaming Engine on), the backlog publisher and the live publisher. Job names carry the run id
 * and segment, so Monitoring's per-job series and the Dataflow console tell the runs apart.
 */
public final class DataflowLaunches {
  /**
   * Shards and workers of a publisher job: enough to publish a 400M-message backlog in minutes
   * (docs/dataflow.md).
   */
  static final int PUBLISHER_SHARDS = 64;

  static final int PUBLISHER_MAX_WORKERS = 16;

  private final ScenarioPlan plan;
  private final GcpSettings target;
  private final String runId;

  public DataflowLaunches(ScenarioPlan plan, GcpSettings target, String runId) {
    this.plan = plan;
    this.target = target;
    this.runId = runId;
  }

  /** A Dataflow job name: lower-case letters, digits and dashes, starting with a letter. */
  public String jobName(int segment, String role) {
    String name =
        (runId + "-s" + segment + "-" + role)
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9-]", "-");
    name = name.replaceAll("-+", "-");
    if (!Character.isLetter(name.charAt(0))) {
      name = "ib-" + name;
    }
    return name.length() > 120
        ? name.substring(name.length() - 120).replaceAll("^[^a-z]+", "ib-")
        : name;
  }

  /**
   * The destination table of {@code job}: {@code --table}, or {@code TABLE_typed} for typed rows.
   */
  public String baseTable(JobConfig job) {
    return job.rowFormat() == RowFormat.TYPED ? target.table() + "_typed" : target.table();
  }

  /**
   * Every data table {@code job} writes: the base table, or {@code BASE_0..BASE_N-1} with
   * destination_tables N.
   */
  public List<String> dataTables(JobConfig job) {
    int n = job.destinationTables() == null ? 1 : job.destinationTables();
    if (n <= 1) {
      return List.of(baseTable(job));
    }
    List<String> tables = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      tables.add(baseTable(job) + "_" + k);
    }
    return tables;
  }

  public DataflowLaunch consumer(String job, int segment) {
    JobConfig config = plan.jobs().get(job);
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put(
        ChildFlag.SUBSCRIPTION.flagName(), target.subscriptionPath(plan.subscription(job)));
    parameters.put(
        ChildFlag.OUTPUT_TABLE.flagName(),
        target.project() + ":" + target.dataset() + "." + baseTable(config));
    List<String> flags = new ArrayList<>(JobSettings.of(config).consumerFlags());
    // The events' format, as the publisher writes them (a template's default is JSON).
    flags.add(ChildFlags.messageFormat(plan.messageFormat()));
    parameters.putAll(ChildFlags.asParameters(flags));
    return new DataflowLaunch(
        job,
        jobName(segment, job),
        target.template("consumer"),
        parameters,
        config.workers(),
        config.machineType(),
        true,
        target.tempLocation(),
        target.stagingLocation());
  }

  /**
   * {@code job}'s consumer as Dataflow will run it: its template parameters read by the consumer's
   * own flag parser, so a setting left to the consumer's default is resolved exactly as the workers
   * will resolve it. Throws {@link IllegalArgumentException} naming the job when the consumer would
   * refuse its parameters.
   */
  public ConsumerConfig consumerConfig(String job) {
    List<String> args = new ArrayList<>();
    args.add(ChildFlag.RUNNER.is("DataflowRunner"));
    args.add(ChildFlag.PROJECT.is(target.project()));
    // Every consumer launch turns Streaming Engine on (DataflowLaunch), as the template's workers
    // see.
    args.add(ChildFlag.ENABLE_STREAMING_ENGINE.is(true));
    consumer(job, 1).parameters().forEach((k, v) -> args.add("--" + k + "=" + v));
    try {
      return ConsumerConfig.from(ConsumerPipeline.parse(args.toArray(new String[0])));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "jobs." + job + ": the consumer cannot run with these settings: " + e.getMessage(), e);
    }
  }

  /** The backlog: every subscription gets {@code backlog} messages before the first stage. */
  public DataflowLaunch backlogPublisher(int segment) {
    return publisher("backlog", segment, 0, plan.backlog(), 0);
  }

  /** The rest of the messages, at {@code rate} per second while the stages run. */
  public DataflowLaunch livePublisher(int segment) {
    return publisher("live", segment, plan.backlog(), plan.liveMessages(), plan.rate());
  }

  /**
   * A publisher job's parameters, rendered as a local publisher's flags are ({@link ChildFlags}).
   */
  private DataflowLaunch publisher(String role, int segment, long first, long count, double rate) {
    List<String> flags =
        ChildFlags.Publisher.topic(target.topicPath(plan.scenario().source().topic()))
            .events(null, plan.messageFormat(), first, count, plan.messageSize(), null)
            .shards(PUBLISHER_SHARDS)
            .rate(rate)
            .build();
    return new DataflowLaunch(
        role,
        jobName(segment, role),
        target.template("publisher"),
        ChildFlags.asParameters(flags),
        null,
        null,
        false,
        target.tempLocation(),
        target.stagingLocation());
  }
}
