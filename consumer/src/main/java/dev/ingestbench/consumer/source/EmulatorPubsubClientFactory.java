package dev.ingestbench.consumer.source;

import org.apache.beam.sdk.io.gcp.pubsub.EmulatorPubsubGrpcClient;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubClient;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubOptions;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Makes PubsubIO read from a local emulator over plaintext gRPC. */
public final class EmulatorPubsubClientFactory implements PubsubClient.PubsubClientFactory {
  private final String emulatorHost;
  private final int pullBatchSize;

  public EmulatorPubsubClientFactory(String emulatorHost, int pullBatchSize) {
    this.emulatorHost = emulatorHost;
    this.pullBatchSize = pullBatchSize;
  }

  @Override
  public PubsubClient newClient(
      @Nullable String timestampAttribute,
      @Nullable String idAttribute,
      PubsubOptions options,
      @Nullable String rootUrlOverride) {
    return EmulatorPubsubGrpcClient.create(
        emulatorHost, timestampAttribute, idAttribute, pullBatchSize);
  }

  @Override
  public PubsubClient newClient(
      @Nullable String timestampAttribute, @Nullable String idAttribute, PubsubOptions options) {
    return newClient(timestampAttribute, idAttribute, options, null);
  }

  @Override
  public String getKind() {
    return "Emulator";
  }
}
