package dev.ingestbench.consumer.source;

import dev.ingestbench.consumer.ConsumerOptions;
import dev.ingestbench.consumer.SourceKind;
import dev.ingestbench.events.MessageAttributes;
import dev.ingestbench.pubsub.PubsubPaths;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubIO;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;

/**
 * The consumer's input: a Pub/Sub subscription (real or emulated) or the in-pipeline generator.
 *
 * <p>Messages are de-duplicated on their {@code event_index} attribute, so a redelivery after a
 * restart is not written twice.
 */
public class ReadMessages extends PTransform<PBegin, PCollection<PubsubMessage>> {
  private final SourceKind kind;
  private final String subscriptionPath;
  private final String emulatorHost;
  private final int emulatorPullBatchSize;
  private final long syntheticMessages;
  private final long seed;
  private final int messageSizeBytes;

  public ReadMessages(ConsumerOptions options) {
    this.kind = SourceKind.fromFlag(options.getSource());
    this.subscriptionPath =
        kind == SourceKind.PUBSUB
            ? PubsubPaths.subscription(options.getProject(), "--subscription", options.getSubscription())
            : null;
    this.emulatorHost = options.getPubsubEmulatorHost();
    this.emulatorPullBatchSize = options.getEmulatorPullBatchSize();
    this.syntheticMessages = options.getSyntheticMessages();
    this.seed = options.getSeed();
    this.messageSizeBytes = options.getMessageSizeBytes();
  }

  /** The name rows record in {@code subscription_name}. */
  public String sourceName() {
    return subscriptionPath == null ? "synthetic" : PubsubPaths.shortName(subscriptionPath);
  }

  @Override
  public PCollection<PubsubMessage> expand(PBegin input) {
    if (kind == SourceKind.SYNTHETIC) {
      return input.apply(
          "Generate synthetic messages",
          new SyntheticMessages(syntheticMessages, seed, messageSizeBytes));
    }
    PubsubIO.Read<PubsubMessage> read =
        PubsubIO.readMessagesWithAttributesAndMessageId()
            .fromSubscription(subscriptionPath)
            .withIdAttribute(MessageAttributes.EVENT_INDEX);
    if (emulatorHost != null && !emulatorHost.isBlank()) {
      read = read.withClientFactory(new EmulatorPubsubClientFactory(emulatorHost, emulatorPullBatchSize));
    }
    return input.apply("Read from Pub/Sub", read);
  }
}
