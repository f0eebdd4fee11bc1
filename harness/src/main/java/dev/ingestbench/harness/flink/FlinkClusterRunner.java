package dev.ingestbench.harness.flink;

import dev.ingestbench.consumer.local.JobJars;
import dev.ingestbench.contracts.ProcessCpuColumns;
import dev.ingestbench.flink.FlinkProcess;
import dev.ingestbench.flink.FlinkRest;
import dev.ingestbench.flink.LocalFlinkCluster;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.process.ServerWatch;
import dev.ingestbench.harness.spec.FlinkClusterSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The Flink cluster a run's consumers are submitted to: one this run starts on this machine (its
 * JobManager and TaskManagers watched for CPU and for death like the run's other servers), or one
 * already running, checked to answer and to run the Flink release of Beam's runner.
 */
public final class FlinkClusterRunner implements AutoCloseable {
  private final LocalFlinkCluster cluster;
  private final String master;
  private final Path classpathJar;

  /**
   * @param cluster the cluster this run started, or null for one of the user's at {@code master}
   * @param classpathJar what each job stages to the cluster this run started, else null
   */
  private FlinkClusterRunner(LocalFlinkCluster cluster, String master, Path classpathJar) {
    this.cluster = cluster;
    this.master = master;
    this.classpathJar = classpathJar;
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
      return new FlinkClusterRunner(null, spec.master(), null);
    }
    Path work = LocalFlinkCluster.newWorkDirectory();
    // Flink alone on the cluster's classpath, as on any cluster: each job brings Beam and the
    // pipeline as its jars, loaded by a class loader of its own. (With the libraries on the
    // cluster's classpath instead, jobs started faster but shared Beam's static caches: two jobs
    // in one TaskManager wrote through one job's append clients, under that job's name.)
    LocalFlinkCluster cluster =
        LocalFlinkCluster.start(
            work, out.resolve("flink"), spec.workers(), spec.slots(), spec.taskHeapMb());
    for (FlinkProcess p : cluster.processes()) {
      cpu.watch(
          p.role().equals("jobmanager") ? ProcessCpuColumns.FLINK_JOBMANAGER : p.name(), p.pid());
    }
    // The JobManager's death ends the round; a TaskManager's is a worker failure, which Flink
    // itself handles (the job restarts from its last checkpoint, or fails and says why).
    FlinkProcess jobManager = cluster.processes().get(0);
    watch.watch(
        new ServerWatch.Server(
            "Flink JobManager",
            jobManager::isAlive,
            () ->
                jobManager.lastLines()
                    + System.lineSeparator()
                    + "(all of it in "
                    + jobManager.log()
                    + ")"));
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
    // Its TaskManagers run on this machine: a job stages one jar that names its libraries where
    // they lie, instead of uploading each of them (JobJars.writeClasspathJar says why).
    Path classpathJar;
    try {
      classpathJar = JobJars.writeClasspathJar(work.resolve("job-classpath.jar"));
    } catch (IOException e) {
      cluster.close();
      throw e;
    }
    return new FlinkClusterRunner(cluster, cluster.master(), classpathJar);
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
   * Kills the first TaskManager still running (SIGKILL) and starts a fresh one in its place, whose
   * CPU is recorded as well.
   *
   * @return what happened, for the round's output
   */
  public String killTaskManager(ProcessCpuSampler cpu) throws IOException, InterruptedException {
    FlinkProcess victim =
        cluster.taskManagers().stream()
            .filter(FlinkProcess::isAlive)
            .findFirst()
            .orElseThrow(() -> new IOException("no TaskManager is running"));
    int index = cluster.taskManagers().indexOf(victim) + 1;
    FlinkProcess replacement = cluster.killTaskManager(index);
    cpu.watch(replacement.name(), replacement.pid());
    return "Killed Flink "
        + victim.name()
        + " (pid "
        + victim.pid()
        + ", SIGKILL) as a worker failure; "
        + replacement.name()
        + " (pid "
        + replacement.pid()
        + ") takes its place, and Flink restarts the job from its last checkpoint";
  }

  /**
   * {@code --filesToStage} for every job: the classpath jar for the cluster this run started, null
   * for a cluster elsewhere (each job stages all of its jars).
   */
  public String filesToStage() {
    return classpathJar == null ? null : classpathJar.toString();
  }

  /** {@code HOST:PORT} for {@code --flinkMaster}. */
  public String master() {
    return master;
  }

  @Override
  public void close() {
    if (cluster != null) {
      cluster.close();
    }
  }
}
