package dev.ingestbench.harness.flink;

import dev.ingestbench.consumer.local.JobJars;
import dev.ingestbench.flink.FlinkProcess;
import dev.ingestbench.flink.FlinkRest;
import dev.ingestbench.flink.LocalFlinkCluster;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.process.ServerWatch;
import dev.ingestbench.harness.spec.FlinkClusterSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The Flink cluster a run's consumers are submitted to: one this run starts on this machine (its
 * JobManager and TaskManagers watched for CPU and for death like the run's other servers), or one
 * already running, checked to answer and to run the Flink release of Beam's runner.
 */
public final class FlinkClusterRunner implements AutoCloseable {
  private final FlinkClusterSpec spec;
  private final LocalFlinkCluster cluster;
  private final String master;
  private final String description;

  private FlinkClusterRunner(
      FlinkClusterSpec spec, LocalFlinkCluster cluster, String master, String description) {
    this.spec = spec;
    this.cluster = cluster;
    this.master = master;
    this.description = description;
  }

  /**
   * Starts the cluster of {@code spec} (its logs under {@code out/flink/}) or checks the running
   * one it names.
   *
   * @throws IOException naming the address of a cluster that does not answer, the two releases of
   *     one that runs another Flink, or the process of a cluster that failed to start
   */
  public static FlinkClusterRunner start(
      FlinkClusterSpec spec,
      Path out,
      ProcessCpuSampler cpu,
      ServerWatch watch,
      Consumer<String> say)
      throws IOException, InterruptedException {
    if (spec.external()) {
      FlinkRest.Overview overview = FlinkRest.overview(spec.master());
      requireRunnersRelease(spec.master(), overview.flinkVersion());
      String description =
          String.format(
              "Flink %s cluster at %s: %d TaskManagers, %d of %d slots free",
              overview.flinkVersion(),
              spec.master(),
              overview.taskManagers(),
              overview.slotsAvailable(),
              overview.slotsTotal());
      say.accept(description);
      if (overview.slotsAvailable() < spec.jobParallelism()) {
        say.accept(
            "warning: each job asks for "
                + spec.jobParallelism()
                + " slots and "
                + overview.slotsAvailable()
                + " are free: a job waits until it gets them");
      }
      return new FlinkClusterRunner(spec, null, spec.master(), description);
    }
    Path work = Files.createTempDirectory("ingestbench-flink-cluster-");
    Files.delete(work); // the cluster creates it, and requires it empty
    // The pipeline's libraries on the cluster's classpath, as in an image built for the pipeline:
    // each job stages its own jar only (measured: uploading all ~200 MB took 27 s per job here,
    // and the TaskManagers' download ~20 s more).
    LocalFlinkCluster cluster =
        LocalFlinkCluster.start(
            work,
            out.resolve("flink"),
            spec.workers(),
            spec.slots(),
            spec.taskHeapMb(),
            JobJars.toStage());
    for (FlinkProcess p : cluster.processes()) {
      cpu.watch(p.role().equals("jobmanager") ? "flink-jobmanager" : p.name(), p.pid());
      watch.watch(
          new ServerWatch.Server(
              "Flink " + p.name(),
              p::isAlive,
              () -> p.lastLines() + System.lineSeparator() + "(all of it in " + p.log() + ")"));
    }
    String description =
        String.format(
            "Flink %s session cluster on %s: a JobManager and %d TaskManagers of %d slots (each a"
                + " JVM of its own; logs in %s); each job runs with parallelism %d",
            LocalFlinkCluster.version(),
            cluster.master(),
            spec.workers(),
            spec.slots(),
            out.resolve("flink"),
            spec.jobParallelism());
    say.accept(description);
    return new FlinkClusterRunner(spec, cluster, cluster.master(), description);
  }

  /** What round.json and the report say of where the jobs ran. */
  public static String describe(FlinkClusterSpec spec) {
    return spec.external()
        ? String.format(
            "FlinkRunner on the Flink cluster at %s (each job with parallelism %d)",
            spec.master(), spec.jobParallelism())
        : String.format(
            "FlinkRunner on a Flink %s session cluster the round started: a JobManager and %d"
                + " TaskManagers of %d slots, each its own JVM (processes_cpu.csv: taskmanager-1..%d);"
                + " each job with parallelism %d",
            LocalFlinkCluster.version(),
            spec.workers(),
            spec.slots(),
            spec.workers(),
            spec.jobParallelism());
  }

  /**
   * Refuses a cluster on another Flink minor release than the runner's: Beam's runner artifact is
   * built for one (beam-runners-flink-1.19 for Flink 1.19.x), and job graphs do not cross minor
   * releases.
   */
  static void requireRunnersRelease(String master, String clusterVersion) throws IOException {
    String runners = LocalFlinkCluster.version();
    if (!minor(clusterVersion).equals(minor(runners))) {
      throw new IOException(
          "the Flink cluster at "
              + master
              + " runs Flink "
              + clusterVersion
              + ", and Beam's runner here is built for Flink "
              + runners
              + ": use a Flink "
              + minor(runners)
              + ".x cluster (or let the round start one: drop --flink-master)");
    }
  }

  private static String minor(String version) {
    String[] parts = version.split("\\.");
    return parts.length >= 2 ? parts[0] + "." + parts[1] : version;
  }

  /**
   * What each job stages: its own jar on the cluster this run started (which has the libraries),
   * every library on a cluster of the user's (null: the consumer's default, {@link
   * JobJars#toStage}).
   */
  public String filesToStage() {
    return cluster != null ? JobJars.pipelineJar() : null;
  }

  /** {@code HOST:PORT} for {@code --flinkMaster}. */
  public String master() {
    return master;
  }

  public int parallelism() {
    return spec.jobParallelism();
  }

  /** One line for the report's environment. */
  public String description() {
    return description;
  }

  @Override
  public void close() {
    if (cluster != null) {
      cluster.close();
    }
  }
}
