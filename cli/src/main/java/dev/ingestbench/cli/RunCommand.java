package dev.ingestbench.cli;

import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.dataflow.DataflowRemoteTarget;
import dev.ingestbench.dataflow.GcpSettings;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.scenario.RemoteTarget;
import dev.ingestbench.harness.scenario.RunSpec;
import dev.ingestbench.harness.scenario.ScenarioRunner;
import dev.ingestbench.harness.spec.FlinkClusterSpec;
import dev.ingestbench.harness.spec.JvmHeap;
import dev.ingestbench.harness.spec.OutDirectory;
import dev.ingestbench.scenario.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ingestbench run}: a scenario file, its stages or iterations, as one resumable command. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run a scenario: an investigation written as a YAML file (scenarios/ has the published rounds)."
          + " Ordered stages start and stop named jobs and hold for a duration or until steady/drained;"
          + " unordered configurations run one at a time in shuffled order, several iterations each.",
      "Progress is saved per stage or iteration: rerunning the same command resumes where it stopped.",
      "Writes report.md, results.jsonl (one record per stage, job and metric), scenario_samples.csv and charts to --out.",
      "",
      "  ingestbench run scenarios/write-method-ab.yaml --scale 0.02",
      "  ingestbench run scenarios/round-1-two-jobs-10kb.yaml --scale 0.001 --dry-run",
      "  ingestbench run scenarios/round-4-java-two-jobs-pooled.yaml --target dataflow \\",
      "      --project my-project --region asia-southeast1 --bucket my-bucket --dry-run",
      ""
    })
public final class RunCommand implements Callable<Integer> {
  /** Where scenarios run. */
  public enum Target {
    local,
    flink,
    dataflow
  }

  @Parameters(index = "0", paramLabel = "FILE", description = "The scenario file (YAML).")
  public Path file;

  @Option(
      names = "--target",
      defaultValue = "local",
      description =
          "local: emulators and one consumer JVM per job on this machine; flink: the same, each job"
              + " submitted to a Flink session cluster (see --workers); dataflow: Flex Template jobs"
              + " in --project (default: ${DEFAULT-VALUE}).")
  public Target target;

  @Mixin FlinkClusterOptions clusterFlags = new FlinkClusterOptions();

  @Option(
      names = FlinkClusterSpec.RUNNER,
      paramLabel = "RUNNER",
      description =
          "With --target local: each consumer's Beam runner, "
              + PipelineRunner.FLINK_RUNNER
              + " (embedded Flink in its JVM) or "
              + PipelineRunner.DIRECT_RUNNER
              + " (default: "
              + PipelineRunner.FLINK_RUNNER
              + "; the DirectRunner can neither restore nor drain a job, so a scenario that kills"
              + " or savepoints its consumers, searches a rate or stops an exactly-once job is"
              + " refused on it). --target flink submits every job to its cluster: only "
              + PipelineRunner.FLINK_RUNNER
              + " there.")
  public String runner;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "Run directory (default: runs/<scenario name>); rerunning into it resumes the run.")
  public Path out;

  @Option(
      names = "--scale",
      paramLabel = "S",
      defaultValue = "1",
      description =
          "Multiply message counts, rate and durations by S to fit this machine; a scaled stage holds"
              + " at least 90 s (a local job needs 25-50 s to start); the report lists every scaled value (default: ${DEFAULT-VALUE}).")
  public double scale;

  @Option(
      names = "--dry-run",
      description = "Print every action and command line; start nothing, write nothing.")
  public boolean dryRun;

  @Option(
      names = "--restart",
      description =
          "Delete the files an earlier run wrote in --out and start over; a"
              + " directory without run.json, or with files a run does not write, is refused and nothing is deleted.")
  public boolean restart;

  @Option(
      names = "--results-table",
      paramLabel = "PROJECT:DATASET.TABLE",
      description =
          "Also append results.jsonl to this BigQuery table (created when missing), with Application"
              + " Default Credentials.")
  public String resultsTable;

  @Option(
      names = "--warm-up-max",
      paramLabel = "DURATION",
      description =
          "A run that resumes at a later stage first starts the jobs that ran before it and waits until they"
              + " are steady (not measured); this caps that wait (default: 2m locally, 10m on Dataflow; 0s: no wait).")
  public String warmUpMax;

  @Option(
      names = JvmHeap.FLAG,
      defaultValue = "2g",
      description = "Heap cap of each publisher and consumer JVM (default: ${DEFAULT-VALUE}).")
  public String heap;

  @ArgGroup(exclusive = false, heading = "%n--target dataflow:%n")
  public DataflowFlags dataflow = new DataflowFlags();

  /** Where a Dataflow run goes; see docs/scenarios.md and docs/dataflow.md. */
  public static final class DataflowFlags {
    @Option(names = "--project", description = "Google Cloud project (no default, on purpose).")
    public String project;

    @Option(
        names = "--region",
        description = "Dataflow region; the dataset is created there too, e.g. asia-southeast1.")
    public String region;

    @Option(
        names = "--bucket",
        description =
            "Bucket (name only) with the Flex Template specs in templates/"
                + " (scripts/flex-template.sh build) and room for tmp/ and staging/.")
    public String bucket;

    @Option(
        names = "--dataset",
        defaultValue = "ingestbench",
        description = "BigQuery dataset (default: ${DEFAULT-VALUE}).")
    public String dataset = "ingestbench";

    @Option(
        names = "--table",
        defaultValue = "taxi_rides",
        description =
            "Base table: TABLE (json-column), TABLE_typed, TABLE_N with destination_tables, TABLE_dlq"
                + " (default: ${DEFAULT-VALUE}).")
    public String table = "taxi_rides";

    @Option(
        names = "--stop-with",
        defaultValue = "cancel",
        converter = StopModeConverter.class,
        description =
            "How a stage stops a Dataflow job: cancel (at once) or drain (finish what was read) (default:"
                + " ${DEFAULT-VALUE}); a stage's stop_with overrides it. A local stage drains unless its"
                + " stop_with says otherwise.")
    public StopMode stopWith = StopMode.CANCEL;

    @Option(
        names = "--poll-interval",
        defaultValue = "30s",
        paramLabel = "DURATION",
        description =
            "How often job states and counters are read; also the length of each sample (default: ${DEFAULT-VALUE}).")
    public String pollInterval = "30s";

    @Option(
        names = "--dataflow-endpoint",
        defaultValue = GcpSettings.DATAFLOW_ENDPOINT,
        description =
            "Dataflow API root URL; http:// means no credentials (default: ${DEFAULT-VALUE}).")
    public String dataflowEndpoint = GcpSettings.DATAFLOW_ENDPOINT;

    @Option(
        names = "--bigquery-endpoint",
        defaultValue = GcpSettings.BIGQUERY_ENDPOINT,
        description =
            "BigQuery API root URL; http:// means no credentials (default: ${DEFAULT-VALUE}).")
    public String bigqueryEndpoint = GcpSettings.BIGQUERY_ENDPOINT;

    @Option(
        names = "--monitoring-endpoint",
        defaultValue = GcpSettings.MONITORING_ENDPOINT,
        description =
            "Cloud Monitoring API; http://HOST:PORT means plaintext gRPC, no credentials (default: ${DEFAULT-VALUE}).")
    public String monitoringEndpoint = GcpSettings.MONITORING_ENDPOINT;

    @Option(
        names = "--send-credentials-to-any-endpoint",
        description =
            "Send your Google credentials to an https endpoint that is not a Google API host"
                + " (*.googleapis.com), e.g. a proxy you run; without it such an endpoint is refused.")
    public boolean credentialsToAnyEndpoint;

    @Option(
        names = "--pubsub-emulator-host",
        paramLabel = "HOST:PORT",
        description =
            "Create the topic and subscriptions on this Pub/Sub emulator instead of Pub/Sub (rehearsals, tests).")
    public String pubsubEmulatorHost = "";
  }

  @Override
  public Integer call() throws Exception {
    return new ScenarioRunner(spec()).run();
  }

  /**
   * The run these flags describe; a bad flag throws IllegalArgumentException naming it and the fix.
   */
  public RunSpec spec() {
    RemoteTarget remote = null;
    if (target == Target.dataflow) {
      DataflowFlags d = dataflow;
      Duration poll =
          Durations.parse(d.pollInterval)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "--poll-interval "
                              + d.pollInterval
                              + " is not a duration (e.g. 30s, 1m)"));
      remote =
          new DataflowRemoteTarget(
              new GcpSettings(
                  d.project,
                  d.region,
                  d.bucket,
                  d.dataset,
                  d.table,
                  d.stopWith,
                  poll,
                  d.dataflowEndpoint,
                  d.bigqueryEndpoint,
                  d.monitoringEndpoint,
                  d.pubsubEmulatorHost,
                  d.credentialsToAnyEndpoint));
    } else if (dataflow.project != null) {
      throw new IllegalArgumentException(
          "--project (and the other Dataflow flags) apply to --target dataflow only;"
              + " add --target dataflow, or leave them out to run locally");
    }
    PipelineRunner jobsRunner = localRunner();
    if (target == Target.flink) {
      jobsRunner = PipelineRunner.onCluster(clusterFlags.spec(null));
    } else if (clusterFlags.anyGiven()) {
      throw new IllegalArgumentException(
          FlinkClusterOptions.names(" and " + FlinkClusterSpec.TASKMANAGER_HEAP)
              + " are for --target flink; add it, or drop them");
    }
    Duration warmUp =
        warmUpMax == null
            ? null
            : Durations.parse(warmUpMax)
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            "--warm-up-max "
                                + warmUpMax
                                + " is not a duration (e.g. 0s, 30s, 2m)"));
    JvmHeap.require(heap);
    if (out != null) {
      OutDirectory.require(out);
    }
    return new RunSpec(
        file, remote, out, scale, dryRun, restart, resultsTable, warmUp, heap, jobsRunner);
  }

  /** --runner's: embedded Flink (the default) or the DirectRunner, in each consumer's JVM. */
  private PipelineRunner localRunner() {
    if (runner == null) {
      return PipelineRunner.embeddedFlink();
    }
    if (target == Target.flink && runner.equals(PipelineRunner.FLINK_RUNNER)) {
      return PipelineRunner
          .embeddedFlink(); // the runner the cluster runs anyway: nothing to choose
    }
    if (target != Target.local) {
      throw new IllegalArgumentException(
          FlinkClusterSpec.RUNNER
              + " sets each consumer's Beam runner with --target local; --target "
              + target
              + (target == Target.flink
                  ? " submits every job to its Flink cluster"
                  : " runs every job on Dataflow")
              + ": drop "
              + FlinkClusterSpec.RUNNER);
    }
    return PipelineRunner.inConsumerJvm(runner, " (a Flink cluster: --target flink)");
  }

  /** {@code drain}, {@code savepoint} or {@code cancel}, as scenario files spell them. */
  static final class StopModeConverter implements CommandLine.ITypeConverter<StopMode> {
    @Override
    public StopMode convert(String value) {
      return StopMode.of(value)
          .orElseThrow(
              () ->
                  new CommandLine.TypeConversionException(
                      "'" + value + "' is not a way to stop a job; use " + StopMode.names()));
    }
  }
}
