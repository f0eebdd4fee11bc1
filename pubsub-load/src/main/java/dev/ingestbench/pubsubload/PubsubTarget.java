package dev.ingestbench.pubsubload;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.rpc.TransportChannelProvider;
import dev.ingestbench.pubsub.PubsubAdmin;
import dev.ingestbench.pubsub.PubsubChannels;
import dev.ingestbench.pubsub.PubsubPaths;
import java.io.IOException;
import java.util.List;

/**
 * Where a load test publishes and pulls: a local emulator (plaintext, no credentials) or real
 * Pub/Sub (the client's defaults and Application Default Credentials). The same client code runs
 * against both; only the channel differs.
 */
final class PubsubTarget implements AutoCloseable {
  private final String project;
  private final String emulatorHost;
  private final PubsubChannels channels;

  PubsubTarget(String project, String emulatorHost) {
    this.project = project;
    this.emulatorHost = emulatorHost;
    this.channels = PubsubChannels.forEmulatorHost(emulatorHost);
  }

  boolean isEmulator() {
    return channels.isEmulator();
  }

  String project() {
    return project;
  }

  String emulatorHost() {
    return emulatorHost;
  }

  String topicPath(String topic) {
    return PubsubPaths.topic(project, "--topic", topic);
  }

  String subscriptionPath(String subscription) {
    return PubsubPaths.subscription(project, "--subscription", subscription);
  }

  /** The topic, and the subscription when the test subscribes; what exists is kept. */
  void ensure(LoadSettings settings) throws IOException {
    PubsubAdmin.ensureTopicAndSubscriptions(
        emulatorHost,
        topicPath(settings.topic()),
        settings.side().subscribes()
            ? List.of(subscriptionPath(settings.subscription()))
            : List.of());
  }

  TransportChannelProvider channelProvider() {
    return channels.channelProvider();
  }

  CredentialsProvider credentialsProvider() {
    return channels.credentialsProvider();
  }

  @Override
  public void close() {
    channels.close();
  }
}
