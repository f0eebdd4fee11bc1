package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.contracts.job.JobSink;
import dev.ingestbench.harness.flink.FlinkClusterRunner;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.process.ChildJvm;
import dev.ingestbench.harness.process.ConsumerProcesses;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.process.ProcessLauncher;
import dev.ingestbench.harness.process.ServerWatch;
import dev.ingestbench.harness.spec.ConsumerSpec;
import dev.ingestbench.harness.spec.OutDirectory;
import dev.ingestbench.harness.stack.LocalStack;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The consumer JVMs of a local run, one per job, as its {@link ConsumerPlan} says (a scenario's
 * jobs, a round's): starting them, starting one again from a checkpoint after a kill, and stopping
 * them cleanly when a stage says so (a savepoint they stopped with is restored by their next start
 * in the segment).
 */
public final class LocalJobs implements AutoCloseable {
  static final String PROJECT = LocalStack.PROJECT;

  /** How long a consumer may take to write its results once asked to stop. */
  private static final long STOP_SECONDS = 120;

  private final ConsumerPlan plan;

  /** The running consumers, each named by its job. */
  private final ConsumerProcesses processes;

  /**
   * The savepoint each job stopped with ({@code stop_with: savepoint}) in a segment, which its next
   * start in that segment restores. A later segment has new servers: it starts afresh.
   */
  private final Map<String, Savepoint> savepoints = new LinkedHashMap<>();

  private record Savepoint(Path segment, String path) {}

  /** As above, its consumers started by {@code launcher}. */
  public LocalJobs(
      ConsumerPlan plan, String heap, PipelineRunner runner, ProcessLauncher launcher) {
    this.plan = plan;
    this.processes = new ConsumerProcesses(launcher, heap, runner);
  }

  /**
   * The consumer's flags once the servers run, submitted to {@code flink} (none: the pipeline runs
   * in the consumer's JVM, or the cluster is not started yet: {@code FLINK_MASTER}) and restoring
   * {@code restore} (a savepoint's or checkpoint's URI; null: afresh).
   */
  public static List<String> args(
      ConsumerSpec consumer,
      String sourceHost,
      BigQueryEmulatorProcess.Address bigQuery,
      Optional<FlinkClusterRunner> flink,
      String restore) {
    return consumer.args(
        sourceHost,
        bigQuery,
        flink.map(FlinkClusterRunner::master).orElse("FLINK_MASTER"),
        flink.map(FlinkClusterRunner::filesToStage).orElse(null),
        restore);
  }

  /**
   * Starts {@code job}'s consumer (restoring the savepoint it stopped with earlier in the segment),
   * stopped when one of {@code watch}'s servers dies.
   */
  public void start(
      String job,
      String sourceHost,
      BigQueryEmulatorProcess.Address bigQuery,
      Path segment,
      ProcessCpuSampler cpu,
      ServerWatch watch,
      Optional<FlinkClusterRunner> flink)
      throws IOException {
    ConsumerSpec consumer = plan.consumer(job, segment);
    Files.createDirectories(consumer.directory());
    if (consumer.sink() == JobSink.IN_PROCESS) {
      // What an earlier consumer of this directory left must not be read as this one's.
      for (String file :
          List.of(
              RunFiles.IN_PROCESS_BIGQUERY,
              RunFiles.ACCOUNTED_INDEXES,
              RunFiles.BIGQUERY_EMULATOR)) {
        Files.deleteIfExists(consumer.directory().resolve(file));
      }
    }
    Savepoint saved = savepoints.remove(job);
    String restore = saved != null && saved.segment().equals(segment) ? saved.path() : null;
    if (restore == null && consumer.checkpoints() != null) {
      // A fresh start numbers its checkpoints from 1 again: an earlier life's higher ones must not
      // be taken for its own by a kill waiting for a checkpoint newer than the job's progress.
      clearCheckpoints(consumer.checkpoints());
    }
    if (restore != null) {
      say("Job %s restores its savepoint %s", job, restore);
    }
    processes.start(
        job,
        plan.processName(job),
        args(consumer, sourceHost, bigQuery, flink, restore),
        plan.logs(segment),
        cpu,
        watch);
  }

  /**
   * Starts {@code job}'s consumer again after a kill, restoring {@code checkpoint}, as its next
   * life ({@link ConsumerProcesses}: its log becomes {@code NAME.log}, the killed life's moves
   * aside; its CPU is recorded as {@code NAME-life-N}).
   */
  public ChildJvm restart(
      String job,
      Path checkpoint,
      String sourceHost,
      BigQueryEmulatorProcess.Address bigQuery,
      Path segment,
      ProcessCpuSampler cpu,
      ServerWatch watch,
      Optional<FlinkClusterRunner> flink)
      throws IOException {
    return processes.restart(
        job,
        plan.processName(job),
        args(
            plan.consumer(job, segment),
            sourceHost,
            bigQuery,
            flink,
            checkpoint.toUri().toString()),
        plan.logs(segment),
        cpu,
        watch);
  }

  /** Job {@code job}'s consumer process name. */
  public String processName(String job) {
    return plan.processName(job);
  }

  /** Job {@code job}'s consumer log in {@code segment}, the running life's. */
  public Path log(String job, Path segment) {
    return plan.log(job, segment);
  }

  /** Where job {@code job}'s consumer keeps the Flink checkpoints a restart restores. */
  public Path checkpoints(String job, Path segment) {
    return plan.consumer(job, segment).checkpoints();
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
  public ChildJvm jvm(String job) {
    return processes.jvm(job);
  }

  /** Whether the job's consumer is running. */
  public boolean alive(String job) {
    ChildJvm jvm = processes.jvm(job);
    return jvm != null && jvm.isAlive();
  }

  /**
   * What the job's consumer said it had accounted for in its latest progress line (0 before its
   * first), across its lives.
   */
  public long progress(String job) {
    return processes.progress(job);
  }

  /**
   * Asks {@code job}'s consumer to stop as {@code mode} says (null: its {@code --stopWith}, a
   * drain; a consumer that stops by itself is waited for), waits while it writes its results;
   * throws if it failed. False when it was not running (in this segment).
   */
  public boolean stop(String job, Path segment, StopMode mode)
      throws IOException, InterruptedException {
    ChildJvm jvm = processes.remove(job);
    if (jvm == null) {
      return false;
    }
    try {
      if (!jvm.isAlive()) {
        // It ended by itself (at its count, or its timeout): nothing to ask.
      } else if (mode == null) {
        jvm.closeStdin();
      } else {
        jvm.stop(mode);
      }
      OptionalInt exit = jvm.waitFor(STOP_SECONDS);
      if (exit.isEmpty()) {
        throw new IOException(
            "job "
                + job
                + "'s consumer did not stop within "
                + STOP_SECONDS
                + " s; see "
                + plan.log(job, segment));
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
    Path file = plan.consumer(job, segment).directory().resolve(RunFiles.SAVEPOINT);
    if (!Files.exists(file)) {
      say(
          "Job %s could not stop with a savepoint and was cancelled (see %s): its next start"
              + " begins afresh, and under exactly-once rows it had appended and not flushed are lost",
          job, plan.log(job, segment));
      return;
    }
    String path = Files.readString(file).strip();
    Files.delete(file);
    savepoints.put(job, new Savepoint(segment, path));
    say("Job %s stopped with a savepoint: %s", job, path);
  }

  /** The job's pid, or -1 when it is not running. */
  public long pid(String job) {
    return processes.pid(job);
  }

  /** Empty while the job's consumer runs; its exit code once it ended by itself. */
  public OptionalInt ended(String job) throws InterruptedException {
    return processes.ended(job);
  }

  private void requireSuccess(String job, int exit, Path segment) throws IOException {
    if (exit != ExitCodes.OK && exit != ExitCodes.INCOMPLETE) {
      throw new IOException(
          "job " + job + "'s consumer failed (exit " + exit + "); see " + plan.log(job, segment));
    }
  }

  @Override
  public void close() {
    processes.close();
  }

  private void say(String format, Object... args) {
    RunLog.say(plan.voice(), format, args);
  }
}
