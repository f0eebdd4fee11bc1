package dev.ingestbench.consumer.local;

import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ingestbench.consumer.ConsumerOptions;
import dev.ingestbench.consumer.SourceKind;
import dev.ingestbench.consumer.WriteMethod;
import dev.ingestbench.consumer.rows.RowEncoding;
import dev.ingestbench.consumer.rows.RowFormat;
import dev.ingestbench.consumer.sink.LocalBigQuery;
import dev.ingestbench.consumer.sink.WrittenRows;
import dev.ingestbench.events.TaxiRideJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the consumer in this JVM against the local sink: shows progress every few seconds, stops the
 * job once every expected message is written or dead-lettered (or on timeout), and writes what the
 * analysis reads: the write timeline, the per-second samples and the verification result.
 */
public final class LocalRun {
  private static final Logger LOG = LoggerFactory.getLogger(LocalRun.class);
  private static final long PROGRESS_EVERY_SECONDS = 5;
  /** Say so when nothing arrives for this long: a stuck run should not look like a slow one. */
  private static final long STALL_WARNING_SECONDS = 30;

  /** Names of the files a local run leaves in {@code --localOutputDir}. */
  public static final String TIMELINE_FILE = "write_api_timeline.csv";
  public static final String TIMELINE_PER_SECOND_FILE = "write_api_timeline_per_second.csv";
  public static final String SAMPLES_FILE = "consumer_samples.csv";
  public static final String RESULT_FILE = "consumer_result.json";

  private LocalRun() {}

  /**
   * @param complete every expected message was accounted for (written or dead-lettered)
   */
  public record Result(
      boolean complete, String stopReason, double seconds, WrittenRows.Snapshot verification) {}

  public static Result drive(Pipeline pipeline, LocalBigQuery sink, ConsumerOptions options)
      throws IOException, InterruptedException {
    long expected =
        options.getExpectedMessages() > 0
            ? options.getExpectedMessages()
            : SourceKind.fromFlag(options.getSource()) == SourceKind.SYNTHETIC ? options.getSyntheticMessages() : 0;
    ResourceSampler sampler = new ResourceSampler(sink);
    Instant started = Instant.now();
    long startNanos = System.nanoTime();
    long deadline = startNanos + options.getTimeoutSeconds() * 1_000_000_000L;
    sink.markLiveFrom(System.currentTimeMillis());
    PipelineResult result = pipeline.run();
    String stopReason;
    long lastRows = 0;
    long lastProgress = startNanos;
    long lastChangeNanos = startNanos;
    long lastAccounted = 0;
    long lastStallWarning = startNanos;
    while (true) {
      Thread.sleep(1_000);
      ResourceSampler.Sample sample = sampler.sample();
      long now = System.nanoTime();
      if (now - lastProgress >= PROGRESS_EVERY_SECONDS * 1_000_000_000L) {
        double interval = (now - lastProgress) / 1e9;
        LOG.info(
            String.format(
                Locale.ROOT,
                "%.0f s: %,d rows written (%,.0f rows/s), %,d of %s accounted for, %d append clients open",
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
      } else if (now - lastChangeNanos >= STALL_WARNING_SECONDS * 1_000_000_000L
          && now - lastStallWarning >= STALL_WARNING_SECONDS * 1_000_000_000L) {
        LOG.warn(
            "No new rows for {} s (pipeline {}): look above for errors, or raise --timeoutSeconds if"
                + " the source is just slow to start",
            Math.round((now - lastChangeNanos) / 1e9),
            result.getState());
        lastStallWarning = now;
      }
      if (expected > 0 && sample.accountedFor() >= expected) {
        stopReason = "all " + expected + " messages written or dead-lettered";
        break;
      }
      PipelineResult.State state = result.getState();
      if (state.isTerminal()) {
        stopReason = "pipeline ended: " + state;
        break;
      }
      if (now > deadline) {
        stopReason = "timeout after " + options.getTimeoutSeconds() + " s";
        break;
      }
    }
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    double cpuSeconds = sampler.totalCpuSeconds();
    stop(result);
    WrittenRows.Snapshot verification = sink.verification();
    boolean complete = expected == 0 || verification.accountedFor() >= expected;
    LOG.info(
        "Stopped ({}): {} rows written, {} distinct, {} duplicates, {} dead-lettered",
        stopReason,
        verification.rowsWritten(),
        verification.distinctEventIndexes(),
        verification.duplicates(),
        verification.deadLetterRows());
    if (!options.getLocalOutputDir().isBlank()) {
      Path dir = Paths.get(options.getLocalOutputDir());
      Files.createDirectories(dir);
      sink.timeline().writeCsv(dir.resolve(TIMELINE_FILE), 60);
      sink.timeline().writeCsv(dir.resolve(TIMELINE_PER_SECOND_FILE), 1);
      sampler.writeCsv(dir.resolve(SAMPLES_FILE));
      writeResult(dir.resolve(RESULT_FILE), options, sink, expected, started, seconds, cpuSeconds, stopReason, verification);
    }
    sink.release();
    return new Result(complete, stopReason, seconds, verification);
  }

  private static void stop(PipelineResult result) {
    if (result.getState().isTerminal()) {
      return;
    }
    try {
      result.cancel();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cancelling the local pipeline failed: {}", e.toString());
    }
  }

  private static void writeResult(
      Path file,
      ConsumerOptions options,
      LocalBigQuery sink,
      long expected,
      Instant started,
      double seconds,
      double cpuSeconds,
      String stopReason,
      WrittenRows.Snapshot v)
      throws IOException {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("runner", options.getRunner().getSimpleName());
    json.put("source", SourceKind.fromFlag(options.getSource()).flag());
    json.put("write_method", WriteMethod.fromFlag(options.getWriteMethod()).flag());
    json.put("row_format", RowFormat.fromFlag(options.getRowFormat()).flag());
    json.put("row_encoding", RowEncoding.fromFlag(options.getRowEncoding()).flag());
    json.put("destination_tables", options.getDestinationTables());
    json.put("use_storage_api_connection_pool", options.getUseStorageApiConnectionPool());
    json.put("num_storage_write_api_streams", options.getNumStorageWriteApiStreams());
    json.put("triggering_frequency_sec", options.getStorageWriteApiTriggeringFrequencySec());
    json.put("started_at", started.toString());
    json.put("seconds", seconds);
    json.put("stop_reason", stopReason);
    json.put("expected", expected);
    json.put("rows_written", v.rowsWritten());
    json.put("distinct_message_ids", v.distinctEventIndexes());
    json.put("duplicates", v.duplicates());
    json.put("unindexed_rows", v.unindexedRows());
    json.put("dead_lettered", v.deadLetterRows());
    json.put("accounted_for", v.accountedFor());
    json.put("latency_samples", v.latencySamples());
    json.put("p50_latency_ms", v.p50LatencyMs());
    json.put("p99_latency_ms", v.p99LatencyMs());
    json.put("max_latency_ms", v.maxLatencyMs());
    json.put("live_latency_samples", v.liveLatencySamples());
    json.put("live_p50_latency_ms", v.liveP50LatencyMs());
    json.put("live_p99_latency_ms", v.liveP99LatencyMs());
    json.put("dead_letter_errors", v.deadLetterErrors());
    json.put("cpu_seconds", cpuSeconds);
    json.put("vcpus", Runtime.getRuntime().availableProcessors());
    json.put("peak_append_clients", sink.peakAppendClients());
    json.put("append_clients_created", sink.appendClientsCreated());
    json.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
    TaxiRideJson.MAPPER.writer(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
  }
}
