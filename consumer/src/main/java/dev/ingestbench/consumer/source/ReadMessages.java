package dev.ingestbench.consumer.source;

import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.consumer.SourceKind;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubIO;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;

/**
 * The consumer's input: a Pub/Sub subscription (real or emulated), a Kafka topic or the in-pipeline
 * generator.
 *
 * <p>Pub/Sub messages are de-duplicated by the runner on their Pub/Sub message id (Beam's default
 * record id), so a redelivery after a restart is not written twice, while a second message that
 * reuses an event index is written and counted by the verification (a duplicate row; a mismatched
 * one when its content differs). {@code --pubsubIdAttribute=event_index} de-duplicates on that
 * attribute instead, and Beam then drops such a message inside the read, uncounted. Kafka offsets
 * are checkpointed with the pipeline, so a restored job does not re-read what it has already
 * processed.
 */
public class ReadMessages extends PTransform<PBegin, PCollection<PubsubMessage>> {
  // Read at graph construction only; composite transforms are not shipped to workers.
  private final transient ConsumerConfig config;

  public ReadMessages(ConsumerConfig config) {
    this.config = config;
  }

  @Override
  public PCollection<PubsubMessage> expand(PBegin input) {
    if (config.source() == SourceKind.SYNTHETIC) {
      ConsumerConfig.SyntheticSource synthetic = config.synthetic();
      return input.apply(
          "Generate synthetic messages",
          new SyntheticMessages(
              synthetic.messages(),
              synthetic.seed(),
              synthetic.messageSizeBytes(),
              config.messageFormat()));
    }
    if (config.source() == SourceKind.KAFKA) {
      return input.apply("Read Kafka records", new ReadFromKafka(config.kafka()));
    }
    PubsubIO.Read<PubsubMessage> read =
        PubsubIO.readMessagesWithAttributesAndMessageId()
            .fromSubscription(config.subscriptionPath());
    if (!config.pubsubIdAttribute().isEmpty()) {
      read = read.withIdAttribute(config.pubsubIdAttribute());
    }
    if (!config.emulatorHost().isEmpty()) {
      read =
          read.withClientFactory(
              new EmulatorPubsubClientFactory(
                  config.emulatorHost(), config.emulatorPullBatchSize()));
    }
    return input.apply("Read from Pub/Sub", read);
  }
}
