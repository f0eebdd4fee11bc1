package org.apache.beam.sdk.io.gcp.pubsub;

import com.google.auth.Credentials;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Beam's own gRPC Pub/Sub client, on a plaintext channel with no credentials, for a local emulator.
 *
 * <p>It lives in Beam's package because the {@link PubsubGrpcClient} constructor that takes a
 * channel is package-private, and Beam's factory always negotiates TLS, which an emulator does not
 * speak. It also asks for {@code pullBatchSize} messages per Pull: the emulator answers each Pull
 * in roughly the same time whatever its size, so Beam's fixed 1,000 would cap a local round far
 * below what the rest of the pipeline can do.
 *
 * <p>After an empty Pull it backs off (25 ms doubling to 400 ms) and answers "nothing" without
 * asking the emulator. Flink's unbounded-source reader visits its sub-readers (Beam splits a
 * subscription four ways per task) round-robin, one record each, and every empty sub-reader pulls;
 * against the emulator, whose every Pull rescans all outstanding messages, that cost ~22,000 empty
 * Pulls, kept the emulator at 87% CPU and held a 20,000-message drain to a few hundred rows/s. Real
 * Pub/Sub never sees this client.
 */
public final class EmulatorPubsubGrpcClient extends PubsubGrpcClient {
  private static final int TIMEOUT_SECONDS = 60;

  /**
   * gRPC refuses replies over 4 MB by default, which a Pull of 10,000 500-byte messages (or 500 10
   * KB messages) exceeds; the emulator is local, so allow what a large Pull needs.
   */
  static final int MAX_INBOUND_MESSAGE_BYTES = 512 * 1024 * 1024;

  private static final long FIRST_BACKOFF_MILLIS = 25;
  private static final long MAX_BACKOFF_MILLIS = 400;
  private final int pullBatchSize;
  private long backoffMillis;
  private long nextPullNanos;

  private EmulatorPubsubGrpcClient(
      String target,
      @Nullable String timestampAttribute,
      @Nullable String idAttribute,
      int pullBatchSize) {
    super(
        timestampAttribute,
        idAttribute,
        TIMEOUT_SECONDS,
        ManagedChannelBuilder.forTarget(target)
            .usePlaintext()
            .maxInboundMessageSize(MAX_INBOUND_MESSAGE_BYTES)
            .build(),
        NoCredentials.INSTANCE);
    this.pullBatchSize = pullBatchSize;
  }

  /** A client for the emulator at {@code target} ({@code host:port}). */
  public static PubsubClient create(
      String target,
      @Nullable String timestampAttribute,
      @Nullable String idAttribute,
      int pullBatchSize) {
    return new EmulatorPubsubGrpcClient(target, timestampAttribute, idAttribute, pullBatchSize);
  }

  @Override
  public synchronized List<IncomingMessage> pull(
      long requestTimeMsSinceEpoch,
      SubscriptionPath subscription,
      int batchSize,
      boolean returnImmediately)
      throws IOException {
    long now = System.nanoTime();
    if (now < nextPullNanos) {
      return List.of();
    }
    List<IncomingMessage> messages =
        super.pull(
            requestTimeMsSinceEpoch,
            subscription,
            Math.max(batchSize, pullBatchSize),
            returnImmediately);
    if (messages.isEmpty()) {
      backoffMillis =
          backoffMillis == 0
              ? FIRST_BACKOFF_MILLIS
              : Math.min(2 * backoffMillis, MAX_BACKOFF_MILLIS);
      nextPullNanos = now + backoffMillis * 1_000_000L;
    } else {
      backoffMillis = 0;
      nextPullNanos = 0;
    }
    return messages;
  }

  /** An emulator takes no credentials; this sends no authorization header at all. */
  private static final class NoCredentials extends Credentials {
    static final NoCredentials INSTANCE = new NoCredentials();

    @Override
    public String getAuthenticationType() {
      return "none";
    }

    @Override
    public Map<String, List<String>> getRequestMetadata(URI uri) {
      return Map.of();
    }

    @Override
    public boolean hasRequestMetadata() {
      return false;
    }

    @Override
    public boolean hasRequestMetadataOnly() {
      return true;
    }

    @Override
    public void refresh() {}
  }
}
