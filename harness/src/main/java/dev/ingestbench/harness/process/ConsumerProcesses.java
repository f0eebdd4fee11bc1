package dev.ingestbench.harness.process;

import dev.ingestbench.harness.flink.PipelineRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The consumer JVMs of a local round or scenario, one running per job: started, started again after
 * a kill as the job's next life, read, and removed when the run stops them. One naming rule for
 * both: a job's consumer is a process {@code NAME} (a scenario's job name; a round's {@code
 * consumer} or {@code consumer-J}) logging to {@code NAME.log} in its directory, where a later life
 * or a later start moves the earlier log to {@code NAME.1.log}, {@code NAME.2.log}, ... so that
 * {@code NAME.log} is always the running consumer's and no life's log is lost. Its CPU is recorded
 * as {@code NAME} ({@code flink-client-JOB} on a Flink cluster, where the JVM only submits the job
 * and watches it, and the pipeline's CPU is the TaskManagers'), a restored life's as {@code
 * NAME-life-N}.
 */
public final class ConsumerProcesses implements AutoCloseable {
  private static final String CONSUMER_MAIN = "dev.ingestbench.consumer.local.LocalConsumer";

  private final ProcessLauncher launcher;
  private final String heap;
  private final PipelineRunner runner;

  /** Read by samplers' threads (pids) while the run starts, stops and restarts jobs. */
  private final Map<String, ChildJvm> running = Collections.synchronizedMap(new LinkedHashMap<>());

  /** Each job's latest progress line: what it had accounted for. */
  private final Map<String, Long> progress = new ConcurrentHashMap<>();

  /** Each job's lives in a directory (a scenario's segment, a round's --out). */
  private final Map<Path, Map<String, Integer>> lives = new HashMap<>();

  /**
   * @param runner where the consumers' pipelines run, which says what their CPU is recorded as
   */
  public ConsumerProcesses(ProcessLauncher launcher, String heap, PipelineRunner runner) {
    this.launcher = launcher;
    this.heap = heap;
    this.runner = runner;
  }

  /**
   * Starts {@code job}'s consumer as process {@code name} with {@code args}, logging in {@code
   * dir}; it is stopped when one of {@code watch}'s servers dies (none: null). Its standard input
   * is kept open, so that a consumer run with {@code --stopOnStdinEof} stops cleanly once it is
   * closed.
   */
  public ChildJvm start(
      String job,
      String name,
      List<String> args,
      Path dir,
      ProcessCpuSampler cpu,
      ServerWatch watch)
      throws IOException {
    ChildJvm jvm = launch(job, name, args, dir, watch);
    running.put(job, jvm);
    cpu.watch(runner.consumerCpuName(job, name), jvm.pid());
    return jvm;
  }

  /**
   * Starts {@code job}'s consumer again after its kill, with {@code args} that restore its
   * checkpoint, as its next life in {@code dir}; the killed life is closed.
   */
  public ChildJvm restart(
      String job,
      String name,
      List<String> args,
      Path dir,
      ProcessCpuSampler cpu,
      ServerWatch watch)
      throws IOException {
    ChildJvm jvm = launch(job, name, args, dir, watch);
    ChildJvm killed = running.put(job, jvm);
    if (killed != null) {
      killed.close();
    }
    int life = lives.computeIfAbsent(dir, d -> new HashMap<>()).merge(job, 1, Integer::sum) + 1;
    cpu.watch(name + "-life-" + life, jvm.pid());
    return jvm;
  }

  private ChildJvm launch(String job, String name, List<String> args, Path dir, ServerWatch watch)
      throws IOException {
    Path log = log(dir, name);
    keepEarlierLog(log);
    ChildJvm jvm =
        ChildJvm.startStoppable(
            launcher,
            name,
            heap,
            CONSUMER_MAIN,
            args,
            log,
            p -> progress.put(job, p.accountedFor()));
    if (watch != null) {
      watch.stopOnDeath(jvm);
    }
    return jvm;
  }

  /** Where process {@code name} logs in {@code dir}: {@code NAME.log}. */
  public static Path log(Path dir, String name) {
    return dir.resolve(name + ".log");
  }

  /** Moves an earlier life's log aside: {@code NAME.1.log}, {@code NAME.2.log}, ... */
  private static void keepEarlierLog(Path log) throws IOException {
    if (!Files.exists(log)) {
      return;
    }
    String base = log.getFileName().toString().replaceAll("\\.log$", "");
    for (int life = 1; ; life++) {
      Path earlier = log.resolveSibling(base + "." + life + ".log");
      if (!Files.exists(earlier)) {
        Files.move(log, earlier);
        return;
      }
    }
  }

  /** The job's running consumer, or null. */
  public ChildJvm jvm(String job) {
    return running.get(job);
  }

  /** The job's running consumer, no longer kept here (the caller stops and closes it), or null. */
  public ChildJvm remove(String job) {
    return running.remove(job);
  }

  /** The job's consumer's pid, or -1 when it is not running. */
  public long pid(String job) {
    ChildJvm jvm = running.get(job);
    return jvm == null ? -1 : jvm.pid();
  }

  /** Empty while the job's consumer runs (or none does); its exit code once it ended by itself. */
  public OptionalInt ended(String job) throws InterruptedException {
    ChildJvm jvm = running.get(job);
    if (jvm == null || jvm.isAlive()) {
      return OptionalInt.empty();
    }
    return jvm.waitFor(5);
  }

  /**
   * What the job's consumer said it had accounted for in its latest progress line (0 before its
   * first), across its lives.
   */
  public long progress(String job) {
    return progress.getOrDefault(job, 0L);
  }

  /** Stops every consumer still running. */
  @Override
  public void close() {
    synchronized (running) {
      running.values().forEach(ChildJvm::close);
      running.clear();
    }
  }
}
