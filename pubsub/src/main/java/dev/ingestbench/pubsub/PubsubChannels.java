package dev.ingestbench.pubsub;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.GrpcTransportChannel;
import com.google.api.gax.rpc.FixedTransportChannelProvider;
import com.google.api.gax.rpc.TransportChannelProvider;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;

/**
 * The transport for the official Pub/Sub client: a plaintext channel with no credentials for an
 * emulator, or {@code null} (the client's defaults) for the real service.
 */
public final class PubsubChannels implements AutoCloseable {
  /** The largest response read from an emulator. */
  public static final int MAX_INBOUND_BYTES = 128 << 20;

  private final ManagedChannel channel;

  private PubsubChannels(ManagedChannel channel) {
    this.channel = channel;
  }

  /** Channels for {@code emulatorHost}, or the real service when it is empty. */
  public static PubsubChannels forEmulatorHost(String emulatorHost) {
    if (emulatorHost == null || emulatorHost.isBlank()) {
      return new PubsubChannels(null);
    }
    // A Pull of 1,000 messages of 10 KB is 10 MB: over gRPC's default 4 MiB, which the emulator
    // (unlike Pub/Sub, which caps a response) does not keep to.
    return new PubsubChannels(
        ManagedChannelBuilder.forTarget(emulatorHost)
            .usePlaintext()
            .maxInboundMessageSize(MAX_INBOUND_BYTES)
            .build());
  }

  public boolean isEmulator() {
    return channel != null;
  }

  /** The channel provider to set on a client builder, or null to keep the client's default. */
  public TransportChannelProvider channelProvider() {
    return channel == null
        ? null
        : FixedTransportChannelProvider.create(GrpcTransportChannel.create(channel));
  }

  /** No credentials for an emulator, or null to keep the client's default. */
  public CredentialsProvider credentialsProvider() {
    return channel == null ? null : NoCredentialsProvider.create();
  }

  @Override
  public void close() {
    if (channel != null) {
      channel.shutdownNow();
    }
  }
}
