package dev.ingestbench.harness.staged;

import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.consumer.local.LocalConsumer;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.harness.flink.FlinkClusterRunner;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.process.ChildJvm;
import dev.ingestbench.harness.process.ConsumerProcesses;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.process.ProcessLauncher;
import dev.ingestbench.harness.process.ServerWatch;
import dev.ingestbench.harness.spec.ConsumerSpec;
import dev.ingestbench.harness.spec.FlinkClusterSpec;
import dev.ingestbench.harness.spec.JobLabels;
import dev.ingestbench.harness.spec.JobSettings;
import dev.ingestbench.harness.spec.OutDirectory;
import dev.ingestbench.harness.stack.LocalStack;
import dev.ingestbench.scenario.JobConfig;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The consumer JVMs of a local scenario, one per job: their flags (built from the scenario and
 * checked by the consumer's own validation before anything starts), starting them, and stopping
 * them cleanly when a stage says so.
 */
public final class LocalJobs implements AutoCloseable {
  static final String PROJECT = LocalStack.PROJECT;
  private static final String UNSTARTED_HOST = "127.0.0.1:1";
  private static final BigQueryEmulatorProcess.Address UNSTARTED_BIGQUERY =
      new BigQueryEmulatorProcess.Address("127.0.0.1:1", "http://127.0.0.1:1");

  /** How long a consumer may take to write its results once asked to stop. */
  private static final long STOP_SECONDS = 120;

  private final ScenarioPlan plan;

  /** Where the consumers read. */
  private final ScenarioSource source;

  private final long timeoutSeconds;

  /** --target flink's cluster, else null (embedded Flink in each job's JVM). */
  private final FlinkClusterSpec cluster;

  private final Map<String, ConsumerConfig> configs = new LinkedHashMap<>();

  /** The running consumers, each named by its job. */
  private final ConsumerProcesses processes;

  /**
   * The savepoint each job stopped with ({@code stop_with: savepoint}) in a segment, which its next
   * start in that segment restores. A later segment has new servers: it starts afresh.
   */
  private final Map<String, Savepoint> savepoints = new LinkedHashMap<>();

  private record Savepoint(Path segment, String path) {}

  /**
   * Validates every job's consumer flags; throws {@link IllegalArgumentException} naming the job.
   */
  public LocalJobs(ScenarioPlan plan, long timeoutSeconds, String heap, FlinkClusterSpec cluster) {
    this(plan, timeoutSeconds, heap, cluster, ProcessLauncher.SYSTEM);
  }

  /** As above, its consumers started by {@code launcher}. */
  LocalJobs(
      ScenarioPlan plan,
      long timeoutSeconds,
      String heap,
      FlinkClusterSpec cluster,
      ProcessLauncher launcher) {
    this.plan = plan;
    this.source = ScenarioSource.of(plan);
    this.processes = new ConsumerProcesses(launcher, heap, cluster != null);
    this.cluster = cluster;
    this.timeoutSeconds = timeoutSeconds;
    for (String job : plan.jobs().keySet()) {
      try {
        configs.put(
            job,
            ConsumerConfig.from(
                LocalConsumer.parse(
                    args(job, UNSTARTED_HOST, UNSTARTED_BIGQUERY, Path.of("unstarted"), null)
                        .toArray(new String[0]))));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "jobs." + job + ": the consumer cannot run with these settings: " + e.getMessage(), e);
      }
    }
  }

  /**
   * Job {@code job}'s consumer flags, reading through {@code sourceHost} (the Pub/Sub emulator's or
   * the Kafka broker's HOST:PORT), writing to {@code bigQuery}.
   */
  List<String> args(
      String job,
      String sourceHost,
      BigQueryEmulatorProcess.Address bigQuery,
      Path segment,
      FlinkClusterRunner flink) {
    return args(job, sourceHost, bigQuery, segment, flink, null);
  }

  /** As above, restoring the job from {@code savepoint} when it is not null. */
  private List<String> args(
      String job,
      String sourceHost,
      BigQueryEmulatorProcess.Address bigQuery,
      Path segment,
      FlinkClusterRunner flink,
      String savepoint) {
    return consumer(job, segment)
        .args(
            sourceHost,
            bigQuery,
            flink == null ? "FLINK_MASTER" : flink.master(),
            flink == null ? null : flink.filesToStage(),
            savepoint);
  }

  /** Job {@code job}'s consumer as it runs in {@code segment}. */
  private ConsumerSpec consumer(String job, Path segment) {
    return new ConsumerSpec(
        "FlinkRunner",
        job,
        source.reads(job),
        plan.messageFormat(),
        JobSettings.of(plan.jobs().get(job)),
        null,
        // A fed job reads for as long as its stages run: it never stops by itself.
        plan.fedLocally() ? 0 : plan.messages(),
        timeoutSeconds,
        directory(segment, job),
        false,
        true, // a stage stops it
        ConsumerSpec.Sink.EMULATOR,
        // Kept in the run's directory: the consumer's own default is deleted when it exits, and
        // the savepoint (or the checkpoint a killed consumer restores) must outlive the consumer
        // that wrote it.
        plan.savepointed(job) || plan.killed(job) ? flinkState(segment, job) : null,
        cluster == null ? null : cluster.jobParallelism(),
        List.of());
  }

  /** Where job {@code job}'s Flink checkpoints and savepoints go in {@code segment}. */
  static Path flinkState(Path segment, String job) {
    return segment.resolve("flink-state").resolve(RunFiles.jobDirectory(job));
  }

  static Path directory(Path segment, String job) {
    return segment.resolve(RunFiles.jobDirectory(job));
  }

  /** Every setting of the job as it will run (the consumer's defaults filled in), for results. */
  Map<String, String> labels(String job) {
    JobConfig j = plan.jobs().get(job);
    return JobLabels.of(configs.get(job), plan.messageSize(), j.workers(), j.machineType());
  }

  /**
   * {@link #labels} of every job, plus the run's scale and machine: what each result record
   * carries.
   */
  public Map<String, Map<String, String>> resultLabels(Collection<String> names, String machine) {
    Map<String, Map<String, String>> all = new LinkedHashMap<>();
    for (String job : names) {
      Map<String, String> l = new LinkedHashMap<>(labels(job));
      l.put("scale", Double.toString(plan.scale()));
      l.put("machine", machine);
      all.put(job, l);
    }
    return all;
  }

  /**
   * Starts {@code job}'s consumer (restoring the savepoint it stopped with earlier in the segment),
   * stopped when one of {@code watch}'s servers dies.
   */
  void start(
      String job,
      String pubsubHost,
      BigQueryEmulatorProcess.Address bigQuery,
      Path segment,
      ProcessCpuSampler cpu,
      ServerWatch watch,
      FlinkClusterRunner flink)
      throws IOException {
    Files.createDirectories(directory(segment, job));
    Savepoint saved = savepoints.remove(job);
    String restore = saved != null && saved.segment().equals(segment) ? saved.path() : null;
    if (restore == null && plan.killed(job)) {
      // A fresh start numbers its checkpoints from 1 again: an earlier life's higher ones must not
      // be taken for its own by a kill waiting for a checkpoint newer than the job's progress.
      clearCheckpoints(flinkState(segment, job));
    }
    if (restore != null) {
      LocalTarget.say("Job %s restores its savepoint %s", job, restore);
    }
    processes.start(
        job, job, args(job, pubsubHost, bigQuery, segment, flink, restore), segment, cpu, watch);
  }

  /**
   * Starts {@code job}'s consumer again after a kill, restoring {@code checkpoint}, as its next
   * life ({@link ConsumerProcesses}: its log becomes {@code JOB.log}, the killed life's moves
   * aside; its CPU is recorded as {@code JOB-life-N}).
   */
  ChildJvm restart(
      String job,
      Path checkpoint,
      String sourceHost,
      BigQueryEmulatorProcess.Address bigQuery,
      Path segment,
      ProcessCpuSampler cpu,
      ServerWatch watch)
      throws IOException {
    return processes.restart(
        job,
        job,
        args(job, sourceHost, bigQuery, segment, null, checkpoint.toUri().toString()),
        segment,
        cpu,
        watch);
  }

  /** Removes every earlier life's checkpoints under {@code state}, keeping its savepoints. */
  private static void clearCheckpoints(Path state) throws IOException {
    if (!Files.isDirectory(state)) {
      return;
    }
    try (var entries = Files.list(state)) {
      for (Path entry : entries.toList()) {
        if (!entry.getFileName().toString().equals("savepoints")) {
          OutDirectory.deleteTree(entry);
        }
      }
    }
  }

  /** The job's running consumer, or null. */
  ChildJvm jvm(String job) {
    return processes.jvm(job);
  }

  /**
   * Asks {@code job}'s consumer to stop as {@code mode} says (null: its {@code --stopWith}, a
   * drain), waits while it writes its results; throws if it failed. False when it was not running
   * (in this segment).
   */
  boolean stop(String job, Path segment, StopMode mode) throws IOException, InterruptedException {
    ChildJvm jvm = processes.remove(job);
    if (jvm == null) {
      return false;
    }
    try {
      if (mode == null) {
        jvm.closeStdin();
      } else {
        jvm.stop(mode);
      }
      OptionalInt exit = jvm.waitFor(STOP_SECONDS);
      if (exit.isEmpty()) {
        throw new IOException(
            "job "
                + job
                + " did not stop within "
                + STOP_SECONDS
                + " s; see "
                + segment.resolve(job + ".log"));
      }
      requireSuccess(job, exit.getAsInt(), segment);
      if (mode == StopMode.SAVEPOINT) {
        rememberSavepoint(job, segment);
      }
      return true;
    } finally {
      jvm.close();
    }
  }

  /**
   * Reads the savepoint path the consumer wrote (and removes the file, so that no later start
   * restores it twice). Without one the stop with a savepoint failed and the consumer cancelled.
   */
  private void rememberSavepoint(String job, Path segment) throws IOException {
    Path file = directory(segment, job).resolve(RunFiles.SAVEPOINT);
    if (!Files.exists(file)) {
      LocalTarget.say(
          "Job %s could not stop with a savepoint and was cancelled (see %s): its next start"
              + " begins afresh, and under exactly-once rows it had appended and not flushed are lost",
          job, segment.resolve(job + ".log"));
      return;
    }
    String path = Files.readString(file).strip();
    Files.delete(file);
    savepoints.put(job, new Savepoint(segment, path));
    LocalTarget.say("Job %s stopped with a savepoint: %s", job, path);
  }

  /** The job's pid, or -1 when it is not running. */
  long pid(String job) {
    return processes.pid(job);
  }

  /** Empty while the job's consumer runs; its exit code once it ended by itself. */
  OptionalInt ended(String job) throws InterruptedException {
    return processes.ended(job);
  }

  static void requireSuccess(String job, int exit, Path segment) throws IOException {
    if (exit != ExitCodes.OK && exit != ExitCodes.INCOMPLETE) {
      throw new IOException(
          "job "
              + job
              + "'s consumer failed (exit "
              + exit
              + "); see "
              + segment.resolve(job + ".log"));
    }
  }

  @Override
  public void close() {
    processes.close();
  }
}
