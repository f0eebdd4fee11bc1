package dev.ingestbench.publisher;

import dev.ingestbench.pubsub.PubsubConnectionOptions;

import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.Validation;

/** Flags of the publisher pipeline; the Pub/Sub client's own batching and flow-control knobs. */
public interface PublisherOptions extends GcpOptions, PubsubConnectionOptions {

  @Description("Topic to publish to: a name (completed with --project) or projects/P/topics/T.")
  @Validation.Required
  String getTopic();

  void setTopic(String value);

  @Description(
      "Comma-separated subscriptions to create on the topic before publishing (idempotent), e.g."
          + " sub-a,sub-b. Empty creates none.")
  @Default.String("")
  String getCreateSubscriptions();

  void setCreateSubscriptions(String value);

  @Description("How many events to publish.")
  @Default.Long(100_000)
  long getNumMessages();

  void setNumMessages(long value);

  @Description("Index of the first event: runs that publish to one topic in parts use disjoint ranges.")
  @Default.Long(0)
  long getFirstEventIndex();

  void setFirstEventIndex(long value);

  @Description("Size of each JSON message in bytes; larger sizes pad a _padding field (e.g. 10000).")
  @Default.Integer(500)
  int getMessageSizeBytes();

  void setMessageSizeBytes(int value);

  @Description("Seed of the event generator: the same seed publishes the same bytes.")
  @Default.Long(1)
  long getSeed();

  void setSeed(long value);

  @Description("Target publish rate for the whole job in messages/s; 0 publishes as fast as possible.")
  @Default.Double(0)
  double getRatePerSecond();

  void setRatePerSecond(double value);

  @Description(
      "How many parallel publishing shards split the run (each with its own client and an equal"
          + " share of the rate). 0 picks the number of local cores.")
  @Default.Integer(0)
  int getPublisherShards();

  void setPublisherShards(int value);

  @Description("Client batching: publish a batch once it holds this many messages (service max 1000).")
  @Default.Long(1000)
  long getBatchMaxMessages();

  void setBatchMaxMessages(long value);

  @Description("Client batching: publish a batch once it holds this many bytes (service max 10 MB).")
  @Default.Long(9_500_000)
  long getBatchMaxBytes();

  void setBatchMaxBytes(long value);

  @Description("Client batching: publish a batch at the latest this many milliseconds after its first message.")
  @Default.Long(10)
  long getBatchDelayMs();

  void setBatchDelayMs(long value);

  @Description("Client flow control: most messages outstanding (published, not yet acknowledged).")
  @Default.Long(10_000)
  long getMaxOutstandingMessages();

  void setMaxOutstandingMessages(long value);

  @Description("Client flow control: most bytes outstanding.")
  @Default.Long(100_000_000)
  long getMaxOutstandingBytes();

  void setMaxOutstandingBytes(long value);

  @Description("What the client does when flow-control limits are reached: block or fail.")
  @Default.Enum("BLOCK")
  FlowControlBehavior getFlowControlBehavior();

  void setFlowControlBehavior(FlowControlBehavior value);

  @Description("Optional JSON file to write the run's result to (published, failures, seconds, rate).")
  @Default.String("")
  String getResultFile();

  void setResultFile(String value);

  /** The client's two useful behaviours at its flow-control limit. */
  enum FlowControlBehavior {
    BLOCK,
    FAIL
  }
}
