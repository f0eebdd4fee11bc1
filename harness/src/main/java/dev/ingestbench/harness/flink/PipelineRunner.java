package dev.ingestbench.harness.flink;

import dev.ingestbench.contracts.ProcessCpuColumns;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.process.ServerWatch;
import dev.ingestbench.harness.spec.FlinkClusterSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where a local job's pipeline runs, and everything that follows from it: in its consumer's own JVM
 * (Beam's embedded FlinkRunner, or the DirectRunner), or on a Flink session cluster the consumer
 * JVM only submits it to. Each difference between the two is a method here, so that the targets,
 * the stack and the dry-run ask the runner instead of testing which one they have.
 */
public sealed interface PipelineRunner {
  /**
   * Beam's Flink runner: embedded in each consumer's JVM (the default), or submitting to a cluster.
   */
  String FLINK_RUNNER = "FlinkRunner";

  /** Beam's DirectRunner, in each consumer's JVM: no Flink, no checkpoints to restore. */
  String DIRECT_RUNNER = "DirectRunner";

  /** Each consumer runs its pipeline itself, on {@code beamRunner}. */
  static PipelineRunner inConsumerJvm(String beamRunner) {
    return new InConsumerJvm(beamRunner);
  }

  /**
   * The Beam runner {@code --runner} names for each consumer's JVM: {@link #FLINK_RUNNER} or {@link
   * #DIRECT_RUNNER}. Any other name (one Beam has, as SparkRunner, or none) is refused naming the
   * flag and the choices, {@code otherwise} saying what else the command offers.
   */
  static PipelineRunner inConsumerJvm(String name, String otherwise) {
    if (!name.equals(FLINK_RUNNER) && !name.equals(DIRECT_RUNNER)) {
      throw new IllegalArgumentException(
          FlinkClusterSpec.RUNNER
              + " "
              + name
              + " is not known; use "
              + FLINK_RUNNER
              + " or "
              + DIRECT_RUNNER
              + otherwise);
    }
    return inConsumerJvm(name);
  }

  /** Each consumer submits its pipeline to {@code cluster}. */
  static PipelineRunner onCluster(FlinkClusterSpec cluster) {
    return new OnFlinkCluster(cluster);
  }

  /** Embedded Flink in each consumer's JVM. */
  static PipelineRunner embeddedFlink() {
    return inConsumerJvm(FLINK_RUNNER);
  }

  /** The consumer's Beam {@code --runner}. */
  String beamRunner();

  /**
   * Whether the consumer's JVM runs the pipeline: killing it kills the job, and its CPU is the
   * job's. On a cluster the job runs in the TaskManagers, shared by every job.
   */
  boolean consumerJvmRunsPipeline();

  /**
   * Whether a job stopped or killed can be restored from Flink's checkpoints and savepoints, and a
   * job drained (its sources stop, what it read is written): on the DirectRunner neither, and a
   * stop cancels the job, an exactly-once one losing the rows it appended and had not flushed.
   */
  default boolean restoresFlinkState() {
    return beamRunner().equals(FLINK_RUNNER);
  }

  /** Each job's {@code --parallelism}, or null: the runner's own. */
  Integer jobParallelism();

  /** What the CPU of job {@code job}'s consumer JVM, process {@code name}, is recorded as. */
  String consumerCpuName(String job, String name);

  /**
   * Starts the cluster (its logs under {@code dir}, its processes' CPU in {@code cpu}, the
   * JobManager watched by {@code watch}) or checks the running one; nothing when the consumers run
   * their pipelines themselves.
   */
  Optional<FlinkClusterRunner> start(
      Path dir, ProcessCpuSampler cpu, ServerWatch watch, Consumer<String> say)
      throws IOException, InterruptedException;

  /** --dry-run: the step that gets the cluster ready, or nothing. */
  Optional<String> describeStart();

  /** What round.json and the report say of where the jobs ran; null: in their own JVMs. */
  String clusterDescription();

  /** {@code ingestbench round}'s flags that give this runner. */
  List<String> asRoundFlags();

  /** What {@code run.json} calls a local scenario's target with this runner. */
  String targetName();

  /** A TaskManager is killed this many seconds after every job writes; null: none. */
  Long killTaskManagerAt();

  /**
   * Why a scenario's {@code kill_taskmanager_at} cannot run here, as its fix; empty where the run
   * starts the cluster whose TaskManager it kills.
   */
  Optional<String> taskManagerKillRefusal();

  /**
   * Every check of the runner's own settings, and that {@code jobs} jobs running at once get the
   * slots they need ({@code what} names where the count comes from); each names the flag and the
   * fix.
   */
  void validate(int jobs, String what);

  /** Embedded Flink or the DirectRunner, in each consumer's JVM. */
  record InConsumerJvm(String beamRunner) implements PipelineRunner {
    @Override
    public boolean consumerJvmRunsPipeline() {
      return true;
    }

    @Override
    public Integer jobParallelism() {
      return null;
    }

    @Override
    public String consumerCpuName(String job, String name) {
      return name;
    }

    @Override
    public Optional<FlinkClusterRunner> start(
        Path dir, ProcessCpuSampler cpu, ServerWatch watch, Consumer<String> say) {
      return Optional.empty();
    }

    @Override
    public Optional<String> describeStart() {
      return Optional.empty();
    }

    @Override
    public String clusterDescription() {
      return null;
    }

    @Override
    public List<String> asRoundFlags() {
      return List.of(FlinkClusterSpec.RUNNER, beamRunner);
    }

    @Override
    public String targetName() {
      return "local";
    }

    @Override
    public Long killTaskManagerAt() {
      return null;
    }

    @Override
    public Optional<String> taskManagerKillRefusal() {
      return Optional.of("run it with --target flink");
    }

    @Override
    public void validate(int jobs, String what) {}
  }

  /** Beam's FlinkRunner submitting each job to a session cluster. */
  record OnFlinkCluster(FlinkClusterSpec spec) implements PipelineRunner {
    @Override
    public String beamRunner() {
      return FLINK_RUNNER;
    }

    @Override
    public boolean consumerJvmRunsPipeline() {
      return false;
    }

    @Override
    public Integer jobParallelism() {
      return spec.jobParallelism();
    }

    /** The JVM only submits the job and watches it; the pipeline's CPU is the TaskManagers'. */
    @Override
    public String consumerCpuName(String job, String name) {
      return ProcessCpuColumns.FLINK_CLIENT + job;
    }

    @Override
    public Optional<FlinkClusterRunner> start(
        Path dir, ProcessCpuSampler cpu, ServerWatch watch, Consumer<String> say)
        throws IOException, InterruptedException {
      return Optional.of(FlinkClusterRunner.start(spec, dir, cpu, watch, say));
    }

    @Override
    public Optional<String> describeStart() {
      return Optional.of(
          (spec.external()
                  ? "check the Flink cluster at " + spec.master() + " -> FLINK_MASTER"
                  : "start a Flink session cluster: a JobManager and "
                      + spec.workers()
                      + " TaskManagers of "
                      + spec.slots()
                      + " slots, each its own JVM, on free loopback ports -> FLINK_MASTER")
              + "; submit every job to it with parallelism "
              + spec.jobParallelism());
    }

    @Override
    public String clusterDescription() {
      return FlinkClusterRunner.describe(spec);
    }

    @Override
    public List<String> asRoundFlags() {
      return spec.asFlags();
    }

    @Override
    public String targetName() {
      return "flink";
    }

    @Override
    public Long killTaskManagerAt() {
      return spec.killTaskManagerAt();
    }

    @Override
    public Optional<String> taskManagerKillRefusal() {
      return spec.external()
          ? Optional.of("drop --flink-master, so that the run starts its own cluster")
          : Optional.empty();
    }

    @Override
    public void validate(int jobs, String what) {
      spec.validate();
      spec.requireSlotsFor(jobs, what);
    }
  }
}
