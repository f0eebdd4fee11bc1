package dev.ingestbench.publisher;

import dev.ingestbench.contracts.SendPacer;
import dev.ingestbench.events.TaxiRideGenerator;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one {@link EventRange} to Kafka with the official producer (its batching: {@code
 * linger.ms}, {@code batch.size}, compression, acks; its flow control: {@code send} blocks while
 * {@code buffer.memory} is full), at the shard's share of the target rate, and outputs how many the
 * brokers acknowledged.
 *
 * <p>Records carry the same {@code event_index} and {@code published_at_ms} as Pub/Sub attributes,
 * as headers, with no key (the producer spreads them over partitions); the record's create time is
 * the producer's clock. As for Pub/Sub, any failed record fails the bundle with the first error.
 */
class PublishToKafkaFn extends DoFn<EventRange, Long> {
  private static final Logger LOG = LoggerFactory.getLogger(PublishToKafkaFn.class);
  private static final long PROGRESS_EVERY_NANOS = TimeUnit.SECONDS.toNanos(5);

  private final PublishSettings settings;
  private final Counter published = Metrics.counter("publisher", "messages_published");
  private final Counter failed = Metrics.counter("publisher", "publish_failures");
  private final Counter bytes = Metrics.counter("publisher", "bytes_published");

  private transient KafkaProducer<byte[], byte[]> producer;
  private transient TaxiRideGenerator generator;

  PublishToKafkaFn(PublishSettings settings) {
    this.settings = settings;
  }

  @Setup
  public void setup() {
    generator =
        new TaxiRideGenerator(
            settings.seed(), settings.messageSizeBytes(), settings.messageFormat());
    Map<String, Object> config = new HashMap<>(settings.kafka().producerConfig());
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.kafka().bootstrapServers());
    producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }

  @ProcessElement
  public void processElement(@Element EventRange range, OutputReceiver<Long> out)
      throws InterruptedException, IOException {
    SendPacer pacer = PacedRange.start(settings, range);
    AtomicLong acknowledged = new AtomicLong();
    AtomicLong failures = new AtomicLong();
    AtomicReference<Exception> firstFailure = new AtomicReference<>();
    Callback outcome =
        (metadata, error) -> {
          if (error == null) {
            acknowledged.incrementAndGet();
          } else {
            failures.incrementAndGet();
            firstFailure.compareAndSet(null, error);
          }
        };
    String topic = settings.kafka().topic();
    long started = System.nanoTime();
    long nextProgress = started + PROGRESS_EVERY_NANOS;
    long bytesSent = 0;
    long handed = 0;
    for (long index = range.start(); index < range.end(); index++) {
      if (pacer != null) {
        pacer.awaitTurn(index);
      }
      byte[] payload = generator.message(index);
      bytesSent += payload.length;
      producer.send(
          KafkaEventRecords.of(topic, index, payload, System.currentTimeMillis()), outcome);
      handed++;
      if (firstFailure.get() != null) {
        break; // fail fast, as the Pub/Sub publisher does
      }
      long nanos = System.nanoTime();
      if (nanos >= nextProgress) {
        long done = index - range.start() + 1;
        LOG.info(
            "range {}..{}: {} of {} handed to the producer ({} msg/s), {} acknowledged",
            range.start(),
            range.end(),
            done,
            range.size(),
            Math.round(done / ((nanos - started) / 1e9)),
            acknowledged.get());
        nextProgress = nanos + PROGRESS_EVERY_NANOS;
      }
    }
    producer.flush(); // every callback has run once flush returns
    published.inc(acknowledged.get());
    failed.inc(failures.get());
    bytes.inc(bytesSent);
    if (failures.get() > 0 || acknowledged.get() != handed) {
      Exception cause = firstFailure.get();
      throw new IllegalStateException(
          (handed - acknowledged.get())
              + " of "
              + handed
              + " records were not acknowledged by Kafka topic "
              + topic
              + "; first error: "
              + cause,
          cause);
    }
    out.output(acknowledged.get());
  }

  @Teardown
  public void teardown() {
    if (producer != null) {
      producer.close(Duration.ofMinutes(1));
    }
  }
}
