package dev.ingestbench.consumer.local;

import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.consumer.rows.CountDeadLetterWriteFailuresFn;
import dev.ingestbench.consumer.rows.ReadIndexes;
import dev.ingestbench.contracts.ConsumerProgress;
import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.MissingIndexes;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.StopMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the consumer in this JVM against a BigQuery emulator: shows progress every few seconds,
 * stops the job once every expected message is written or dead-lettered (or on timeout), and writes
 * what the analysis reads: the write timeline, the per-second samples and the verification result.
 *
 * <p>With {@code --progressLines} it also prints a {@link ConsumerProgress} line once a second for
 * the process that started it.
 */
public final class LocalRun {
  private static final Logger LOG = LoggerFactory.getLogger(LocalRun.class);
  private static final long PROGRESS_EVERY_SECONDS = 5;

  /** Say so when nothing arrives for this long: a stuck run should not look like a slow one. */
  private static final long STALL_WARNING_SECONDS = 30;

  /**
   * Before the first row of a job submitted to a Flink cluster: it stages ~200 MB of jars, which
   * the TaskManagers then fetch, and measured 50-90 s to its first row on 2 vCPUs.
   */
  private static final long CLUSTER_START_WARNING_SECONDS = 120;

  private LocalRun() {}

  /**
   * @param complete every expected message was accounted for (written or dead-lettered)
   */
  public record Result(
      boolean complete, String stopReason, double seconds, EmulatorStatus.Job verification) {}

  /** The stop reason of a run whose parent (a round) died, e.g. by SIGKILL. */
  static final String ORPHANED =
      "stopped: the process that started it is gone; results are partial";

  /**
   * The process that started this one, as it was at start (a dead parent's children are
   * re-parented).
   */
  private static final Optional<ProcessHandle> PARENT = ProcessHandle.current().parent();

  private static boolean parentGone() {
    return PARENT.map(p -> !p.isAlive()).orElse(false);
  }

  /** The stop reason of a run ended by SIGTERM or Ctrl-C. */
  static final String SIGNALLED =
      "stopped: the process was asked to stop (SIGTERM or Ctrl-C); results are partial";

  public static Result drive(
      Pipeline pipeline, EmulatorView emulator, ConsumerConfig config, StopSignal stop)
      throws IOException, InterruptedException {
    long expected = config.expectedMessages();
    ResourceSampler sampler = new ResourceSampler(emulator);
    Instant started = Instant.now();
    long startNanos = System.nanoTime();
    long deadline = startNanos + config.timeoutSeconds() * 1_000_000_000L;
    ReadIndexes.track(config.quietPeriodSeconds() > 0 ? expected : 0);
    PipelineResult result = pipeline.run();
    StdinEof stdinClosed = config.stopOnStdinEof() ? StdinEof.watch() : null;
    String stopReason;
    long lastRows = 0;
    long lastProgress = startNanos;
    long lastChangeNanos = startNanos;
    long lastAccounted = 0;
    long lastStallWarning = startNanos;
    long completeAtNanos = -1;
    QuietDrain quiet = new QuietDrain(expected, config.quietPeriodSeconds(), startNanos);
    long firstStallNanos =
        (onCluster(pipeline) ? CLUSTER_START_WARNING_SECONDS : STALL_WARNING_SECONDS)
            * 1_000_000_000L;
    while (true) {
      Thread.sleep(stop.requested() ? 0 : 1_000);
      if (stop.requested()) {
        stopReason = SIGNALLED;
        break;
      }
      // Before the sample: the round's BigQuery emulator may have gone with the round.
      if (config.stopWhenParentExits() && parentGone()) {
        stopReason = ORPHANED;
        break;
      }
      ResourceSampler.Sample sample = sampler.sample();
      if (config.progressLines()) {
        System.out.println(
            new ConsumerProgress(sample.rowsVisible(), sample.accountedFor()).toLine());
      }
      long now = System.nanoTime();
      if (now - lastProgress >= PROGRESS_EVERY_SECONDS * 1_000_000_000L) {
        double interval = (now - lastProgress) / 1e9;
        LOG.info(
            String.format(
                Locale.ROOT,
                "%.0f s: %,d rows written (%,.0f rows/s), %,d of %s accounted for, %d connections open",
                (now - startNanos) / 1e9,
                sample.rowsVisible(),
                (sample.rowsVisible() - lastRows) / interval,
                sample.accountedFor(),
                expected > 0 ? String.format(Locale.ROOT, "%,d", expected) : "?",
                sample.openAppendClients()));
        lastRows = sample.rowsVisible();
        lastProgress = now;
      }
      if (sample.accountedFor() != lastAccounted) {
        lastAccounted = sample.accountedFor();
        lastChangeNanos = now;
      } else if (now - startNanos >= firstStallNanos
          && now - lastChangeNanos >= STALL_WARNING_SECONDS * 1_000_000_000L
          && now - lastStallWarning >= STALL_WARNING_SECONDS * 1_000_000_000L) {
        LOG.warn(
            "No new rows for {} s (pipeline {}): look above for errors, or raise --timeoutSeconds if"
                + " the source is just slow to start",
            Math.round((now - lastChangeNanos) / 1e9),
            state(result));
        lastStallWarning = now;
      }
      if (stdinClosed != null && stdinClosed.happened()) {
        stopReason = "stopped: standard input closed";
        break;
      }
      // Handled, not only accounted for: a dead letter without an event index was read too.
      if (expected > 0 && sampler.lastJob().handled() >= expected) {
        // Complete; keep watching a little, so late duplicates are counted rather than missed.
        if (completeAtNanos < 0) {
          completeAtNanos = now;
        }
        if (now - completeAtNanos >= config.duplicateGraceSeconds() * 1_000_000_000L) {
          stopReason =
              "all "
                  + expected
                  + " messages written or dead-lettered (then watched "
                  + config.duplicateGraceSeconds()
                  + " s more for late duplicates)";
          break;
        }
      }
      EmulatorStatus.Job job = sampler.lastJob();
      if (quiet.answerKnown(
          ReadIndexes.distinct(),
          job.rowsWritten(),
          job.appendRequests(),
          job.appendsInFlight(),
          job.handled(),
          now)) {
        stopReason = quiet.stopReason();
        break;
      }
      PipelineResult.State state = state(result);
      if (state.isTerminal()) {
        stopReason = ConsumerResult.PIPELINE_ENDED + ": " + state;
        break;
      }
      if (now > deadline) {
        stopReason = ConsumerResult.TIMED_OUT + " after " + config.timeoutSeconds() + " s";
        break;
      }
    }
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    double cpuSeconds = sampler.totalCpuSeconds();
    // Only a stage's stop drains: a complete run has nothing left to write, and a signal or timeout
    // asks
    // for an end now.
    // Only a stage's stop drains; a consumer whose parent died has no sink left to drain into (the
    // round's BigQuery emulator stopped with it) and cancels, as a signal or a timeout does.
    boolean drainable =
        stdinClosed != null && stdinClosed.happened() && !stopReason.equals(ORPHANED);
    StopMode mode = drainable ? stdinClosed.mode().orElse(config.stopWith()) : StopMode.CANCEL;
    String savepoint = stop(result, mode, pipeline);
    if (mode == StopMode.SAVEPOINT) {
      stopReason += savepoint == null ? "; the savepoint failed: cancelled" : "; state saved";
    }
    EmulatorStatus.Job verification;
    try {
      verification = emulator.job();
    } catch (IOException e) {
      if (!(stop.requested() || stopReason.equals(ORPHANED)) || sampler.lastJob() == null) {
        throw e;
      }
      // A round stops its BigQuery emulator at the same signal: keep its last answer, a second old.
      LOG.warn(
          "The BigQuery emulator no longer answers ({}): results from its last answer",
          e.toString());
      verification = sampler.lastJob();
    }
    boolean complete = expected == 0 || verification.handled() >= expected;
    if (!complete
        && (ConsumerResult.stoppedShort(stopReason)
            || stopReason.startsWith(QuietDrain.STOP_REASON))) {
      stopReason += "; " + missing(emulator, expected);
    }
    LOG.info(
        "Stopped ({}): {} rows written, {} distinct, {} duplicates, {} dead-lettered",
        stopReason,
        verification.rowsWritten(),
        verification.distinctMessageIds(),
        verification.duplicates(),
        verification.deadLettered());
    Path dir = config.localOutputDir();
    if (dir != null) {
      Files.createDirectories(dir);
      if (savepoint != null && mode == StopMode.SAVEPOINT) {
        Files.writeString(dir.resolve(RunFiles.SAVEPOINT), savepoint + "\n");
      }
      emulator.writeFiles(dir);
      sampler.writeCsv(dir.resolve(RunFiles.CONSUMER_SAMPLES));
      RunJson.write(
          dir.resolve(RunFiles.CONSUMER_RESULT),
          result(config, started, seconds, cpuSeconds, stopReason, verification));
    }
    return new Result(complete, stopReason, seconds, verification);
  }

  /** Whether the pipeline was submitted to a Flink cluster rather than run embedded. */
  private static boolean onCluster(Pipeline pipeline) {
    String master = pipeline.getOptions().as(FlinkPipelineOptions.class).getFlinkMaster();
    return master != null && !master.equals("[local]") && !master.equals("[auto]");
  }

  /** How long a drain or a savepoint may take before the job is cancelled after all. */
  private static final long DRAIN_MAX_SECONDS = 60;

  /**
   * The pipeline's state. An embedded Flink cluster shuts down once its job has ended, and then
   * answers "MiniCluster is not yet running or has already been shut down" instead of a state: the
   * job ended by itself (it finished, or failed: Flink's lines above say which).
   */
  private static PipelineResult.State state(PipelineResult result) {
    try {
      return result.getState();
    } catch (IllegalStateException clusterGone) {
      if (!String.valueOf(clusterGone.getMessage()).contains("MiniCluster")) {
        throw clusterGone; // not the embedded cluster's shutdown: a failure to report as such
      }
      LOG.warn(
          "The embedded Flink cluster has shut down ({}): its job ended by itself",
          clusterGone.getMessage());
      return PipelineResult.State.DONE;
    }
  }

  /**
   * Ends the pipeline as {@code mode} says; returns the savepoint a drain or a savepoint stop
   * wrote, or null (cancelled, also after a failed drain or savepoint).
   */
  private static String stop(PipelineResult result, StopMode mode, Pipeline pipeline) {
    if (state(result).isTerminal()) {
      return null;
    }
    if (mode != StopMode.CANCEL) {
      boolean drain = mode == StopMode.DRAIN;
      String storage =
          pipeline.getOptions().as(FlinkPipelineOptions.class).getStateBackendStoragePath();
      long start = System.nanoTime();
      try {
        LOG.info(
            drain
                ? "Draining: the sources stop, what was read is written, then the job ends"
                : "Stopping with a savepoint: the sources stop and the job's state is saved (rows"
                    + " read and not yet written with it) for a restart with --savepointPath");
        // Without a checkpoint directory (a --stateBackend of the user's without a path), Flink's
        // own configured savepoint directory is used, or the stop fails and the job is cancelled
        // below.
        String path =
            FlinkDrain.stopWithSavepoint(
                result,
                drain,
                storage == null ? null : storage + (drain ? "/drain" : "/savepoints"),
                DRAIN_MAX_SECONDS);
        LOG.info(
            "{} in {} s; savepoint {}",
            drain ? "Drained" : "Stopped",
            Math.round((System.nanoTime() - start) / 1e9),
            path);
        return path;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        LOG.warn("Interrupted while stopping with a savepoint: cancelling instead");
      } catch (Exception e) {
        LOG.warn(
            "{} failed ({}): cancelling instead; under exactly-once, rows appended and not yet"
                + " flushed are lost",
            drain ? "Draining" : "Stopping with a savepoint",
            e.toString());
      }
    }
    try {
      result.cancel();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cancelling the local pipeline failed: {}", e.toString());
    }
    return null;
  }

  private static ConsumerResult result(
      ConsumerConfig config,
      Instant started,
      double seconds,
      double cpuSeconds,
      String stopReason,
      EmulatorStatus.Job v) {
    return new ConsumerResult(
        config.runnerName(),
        config.source().flag(),
        config.writeMethod().flag(),
        config.rowFormat().flag(),
        config.rowEncoding().flag(),
        config.target().tables(),
        config.connectionPool(),
        config.numStorageWriteApiStreams(),
        config.triggeringFrequencySec(),
        started.toString(),
        seconds,
        stopReason,
        config.expectedMessages(),
        v.rowsWritten(),
        v.distinctMessageIds(),
        v.duplicates(),
        v.unindexedRows(),
        v.deadLettered(),
        v.accountedFor(),
        v.latency(),
        v.liveLatency(),
        v.backlogLatency(),
        v.caughtUpAt(),
        v.deadLetterErrors(),
        cpuSeconds,
        Runtime.getRuntime().availableProcessors(),
        v.peakConnections(),
        (int) v.connectionsOpened(),
        Runtime.getRuntime().maxMemory(),
        v.deadLetters(),
        CountDeadLetterWriteFailuresFn.inThisJvm(),
        config.runId(),
        v.foreignRows(),
        v.mismatchedRows(),
        v.mismatches(),
        v.intendedLatency(),
        v.sourceDuplicates(),
        v.unindexedDeadLetters(),
        config.target().routing().skew().flag(),
        v.misroutedRows(),
        v.misroutes(),
        v.routeCheckedRows());
  }

  /**
   * Which published indexes the job never wrote nor dead-lettered, as ranges: what a user looks for
   * next.
   */
  private static String missing(EmulatorView emulator, long expected) {
    try {
      return "missing event indexes: "
          + MissingIndexes.describe(emulator.accounted().indexes(), expected, 5);
    } catch (IOException e) {
      return "the missing event indexes could not be read (" + e.getMessage() + ")";
    }
  }
}
