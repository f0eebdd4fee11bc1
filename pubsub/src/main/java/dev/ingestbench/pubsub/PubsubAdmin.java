package dev.ingestbench.pubsub;

import com.google.api.gax.rpc.AlreadyExistsException;
import com.google.cloud.pubsub.v1.SubscriptionAdminClient;
import com.google.cloud.pubsub.v1.SubscriptionAdminSettings;
import com.google.cloud.pubsub.v1.TopicAdminClient;
import com.google.cloud.pubsub.v1.TopicAdminSettings;
import com.google.pubsub.v1.Subscription;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Creates a topic and its subscriptions idempotently: what exists already is left as it is. */
public final class PubsubAdmin {
  private static final Logger LOG = LoggerFactory.getLogger(PubsubAdmin.class);

  /**
   * The ack deadline of subscriptions on Google Cloud: long enough for a checkpointing runner to
   * ack what it read before Pub/Sub redelivers it.
   */
  public static final int ACK_DEADLINE_SECONDS = 60;

  /**
   * The ack deadline of subscriptions on the emulator: Pub/Sub's own default. Beam's reader extends
   * the deadline of what it holds (by half of it, before 20% is left) and Flink de-duplicates a
   * redelivery, so the deadline only decides how soon the messages a stopped or killed job had
   * pulled come back: 10 s instead of 60 after each kill and before a stopped job's leftovers can
   * be counted.
   */
  public static final int EMULATOR_ACK_DEADLINE_SECONDS = 10;

  private PubsubAdmin() {}

  /** Ensures {@code topicPath} and each of {@code subscriptionPaths} (attached to it) exist. */
  public static void ensureTopicAndSubscriptions(
      String emulatorHost, String topicPath, List<String> subscriptionPaths) throws IOException {
    try (PubsubChannels channels = PubsubChannels.forEmulatorHost(emulatorHost)) {
      TopicAdminSettings.Builder topicSettings = TopicAdminSettings.newBuilder();
      SubscriptionAdminSettings.Builder subscriptionSettings =
          SubscriptionAdminSettings.newBuilder();
      if (channels.isEmulator()) {
        topicSettings
            .setTransportChannelProvider(channels.channelProvider())
            .setCredentialsProvider(channels.credentialsProvider());
        subscriptionSettings
            .setTransportChannelProvider(channels.channelProvider())
            .setCredentialsProvider(channels.credentialsProvider());
      }
      try (TopicAdminClient topics = TopicAdminClient.create(topicSettings.build());
          SubscriptionAdminClient subscriptions =
              SubscriptionAdminClient.create(subscriptionSettings.build())) {
        try {
          topics.createTopic(topicPath);
          LOG.info("Created topic {}", topicPath);
        } catch (AlreadyExistsException e) {
          LOG.info("Topic {} exists already", topicPath);
        }
        for (String subscriptionPath : subscriptionPaths) {
          try {
            subscriptions.createSubscription(
                Subscription.newBuilder()
                    .setName(subscriptionPath)
                    .setTopic(topicPath)
                    .setAckDeadlineSeconds(
                        channels.isEmulator()
                            ? EMULATOR_ACK_DEADLINE_SECONDS
                            : ACK_DEADLINE_SECONDS)
                    .build());
            LOG.info("Created subscription {}", subscriptionPath);
          } catch (AlreadyExistsException e) {
            LOG.info("Subscription {} exists already", subscriptionPath);
          }
        }
      }
    }
  }
}
