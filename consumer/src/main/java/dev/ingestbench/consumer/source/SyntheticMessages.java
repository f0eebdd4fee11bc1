package dev.ingestbench.consumer.source;

import dev.ingestbench.events.MessageAttributes;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRideGenerator;
import java.util.Map;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessageWithAttributesAndMessageIdCoder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Generates the publisher's messages inside the pipeline, so the consumer's own cost can be
 * measured without a broker.
 *
 * <p>The sequence is read as an unbounded source (a rate far above what a machine consumes), the
 * shape of a Pub/Sub read, because runners treat bounded and unbounded reads very differently.
 */
public class SyntheticMessages extends PTransform<PBegin, PCollection<PubsubMessage>> {
  /** Effectively unthrottled; the rate only makes the source unbounded. */
  private static final long UNTHROTTLED_PER_SECOND = 1_000_000_000L;

  private final long count;
  private final long seed;
  private final int messageSizeBytes;
  private final MessageFormat format;

  public SyntheticMessages(long count, long seed, int messageSizeBytes, MessageFormat format) {
    this.count = count;
    this.seed = seed;
    this.messageSizeBytes = messageSizeBytes;
    this.format = format;
  }

  @Override
  public PCollection<PubsubMessage> expand(PBegin input) {
    return input
        .apply(
            "Generate indexes",
            GenerateSequence.from(0)
                .to(count)
                .withRate(UNTHROTTLED_PER_SECOND, Duration.standardSeconds(1)))
        .apply("Generate messages", ParDo.of(new GenerateMessageFn(seed, messageSizeBytes, format)))
        .setCoder(PubsubMessageWithAttributesAndMessageIdCoder.of());
  }

  /**
   * Event index to the message the publisher would have sent, stamped with the time it was made.
   */
  static class GenerateMessageFn extends DoFn<Long, PubsubMessage> {
    private final long seed;
    private final int messageSizeBytes;
    private final MessageFormat format;
    private transient TaxiRideGenerator generator;

    GenerateMessageFn(long seed, int messageSizeBytes, MessageFormat format) {
      this.seed = seed;
      this.messageSizeBytes = messageSizeBytes;
      this.format = format;
    }

    @Setup
    public void setup() {
      generator = new TaxiRideGenerator(seed, messageSizeBytes, format);
    }

    @ProcessElement
    public void processElement(@Element Long index, OutputReceiver<PubsubMessage> out) {
      Instant now = Instant.now();
      String id = Long.toString(index);
      out.outputWithTimestamp(
          new PubsubMessage(
              generator.message(index),
              Map.of(
                  MessageAttributes.EVENT_INDEX,
                  id,
                  MessageAttributes.PUBLISHED_AT_MS,
                  Long.toString(now.getMillis())),
              id),
          now);
    }

    @Override
    public Duration getAllowedTimestampSkew() {
      return Duration.millis(Long.MAX_VALUE); // stamping generation time, later than the sequence's
    }
  }
}
