package dev.ingestbench.publisher;

import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.MainErrors;
import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.pubsub.PubsubAdmin;
import dev.ingestbench.pubsub.PubsubPaths;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.values.PCollection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Batch pipeline that publishes {@code --numMessages} synthetic taxi-ride events (JSON or Avro) to
 * a Pub/Sub {@code --topic} or, with {@code --sink=kafka}, a Kafka {@code --kafkaTopic}.
 *
 * <p>The run is split into shards, each published by one client with the configured batching and
 * flow control; on Dataflow the shards spread over workers.
 */
public final class PublisherPipeline {
  private static final Logger LOG = LoggerFactory.getLogger(PublisherPipeline.class);

  private PublisherPipeline() {}

  /** Adds the publishing steps to {@code pipeline}; returns the count the service acknowledged. */
  public static PCollection<Long> build(Pipeline pipeline, PublishSettings settings) {
    List<EventRange> ranges =
        EventRange.split(settings.firstEventIndex(), settings.numMessages(), settings.shards());
    PCollection<EventRange> shards =
        pipeline.apply(
            "Split into shards",
            Create.of(ranges).withCoder(SerializableCoder.of(EventRange.class)));
    if (!pipeline.getOptions().getRunner().getSimpleName().equals("FlinkRunner")) {
      // Dataflow (and the DirectRunner) would keep the created shards together: the reshuffle
      // spreads them over workers. Flink splits Create's elements over its subtasks itself, each
      // taking the next as it is free; the reshuffle's random keys could give two shards to one
      // subtask, which would publish them one after the other, at half the rate.
      shards = shards.apply("Spread shards over workers", Reshuffle.viaRandomKey());
    }
    return shards
        .apply(
            "Publish events",
            settings.kafka() != null
                ? ParDo.of(new PublishToKafkaFn(settings))
                : ParDo.of(new PublishEventsFn(settings)))
        .apply("Count published", Sum.longsGlobally());
  }

  /** Creates topic and subscriptions if asked, then runs the pipeline to completion. */
  public static PipelineResult run(PublisherOptions options) throws Exception {
    PublishSettings settings = PublishSettings.from(options);
    List<String> subscriptions =
        Arrays.stream(options.getCreateSubscriptions().split(","))
            .map(String::trim)
            .filter(s -> !s.isEmpty())
            .map(s -> PubsubPaths.subscription(options.getProject(), "--createSubscriptions", s))
            .toList();
    if (settings.kafka() != null && settings.kafka().partitions() > 0) {
      KafkaTopics.ensure(settings.kafka());
    }
    if (!subscriptions.isEmpty()) {
      PubsubAdmin.ensureTopicAndSubscriptions(
          settings.emulatorHost(), settings.topicPath(), subscriptions);
    }
    if (settings.batchMaxBytes() < options.getBatchMaxBytes()) {
      LOG.info(
          "Publishing to an emulator: batches capped at {} bytes (gRPC's 4 MiB request limit there)"
              + " instead of --batchMaxBytes={}",
          settings.batchMaxBytes(),
          options.getBatchMaxBytes());
    }
    LOG.info(
        "Publishing {} messages of ~{} B to {} in {} shard(s){}",
        settings.numMessages(),
        settings.messageSizeBytes(),
        settings.destination(),
        settings.shards(),
        settings.ratePerSecond() > 0 ? " at " + settings.ratePerSecond() + " msg/s" : "");
    if (options.getRunner().getSimpleName().equals("FlinkRunner")
        && options.as(FlinkPipelineOptions.class).getParallelism() < 1) {
      // Every shard publishes its share of the rate at once, as on the DirectRunner.
      options.as(FlinkPipelineOptions.class).setParallelism(settings.shards());
    }
    Pipeline pipeline = Pipeline.create(options);
    build(pipeline, settings);
    Instant startedAt = Instant.now();
    long started = System.nanoTime();
    PipelineResult result = pipeline.run();
    if (options.getRunner().getSimpleName().equals("DataflowRunner")) {
      // On Dataflow (and as a Flex Template) the launcher returns once the job is submitted; the
      // job's counters (messages_published, publish_failures) are in the Dataflow console.
      LOG.info("Submitted to Dataflow: {}", result);
      return result;
    }
    result.waitUntilFinish();
    double seconds = (System.nanoTime() - started) / 1e9;
    long published = counter(result, "messages_published");
    LOG.info(
        "Published {} of {} messages in {} s ({} msg/s)",
        published,
        settings.numMessages(),
        String.format("%.1f", seconds),
        Math.round(published / seconds));
    if (!options.getResultFile().isBlank()) {
      RunJson.write(
          Path.of(options.getResultFile()),
          new PublisherResult(
              settings.destination(),
              settings.numMessages(),
              published,
              counter(result, "publish_failures"),
              counter(result, "bytes_published"),
              settings.messageSizeBytes(),
              settings.ratePerSecond(),
              startedAt.toString(),
              seconds,
              published / seconds,
              settings.shards(),
              options.getRunId()));
    }
    return result;
  }

  /** The committed (or attempted, where the runner has no committed values) value of a counter. */
  public static long counter(PipelineResult result, String name) {
    MetricQueryResults metrics =
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named("publisher", name))
                    .build());
    long total = 0;
    for (MetricResult<Long> counter : metrics.getCounters()) {
      try {
        total += counter.getCommitted();
      } catch (UnsupportedOperationException e) {
        total += counter.getAttempted();
      }
    }
    return total;
  }

  /** Parses and validates flags; bad ones throw {@link IllegalArgumentException} naming them. */
  public static PublisherOptions parse(String[] args) {
    PipelineOptionsFactory.register(PublisherOptions.class);
    return PipelineOptionsFactory.fromArgs(args).withValidation().as(PublisherOptions.class);
  }

  public static void main(String[] args) {
    System.exit(
        MainErrors.run(
            "publisher",
            () -> {
              run(parse(args));
              return ExitCodes.OK;
            }));
  }
}
