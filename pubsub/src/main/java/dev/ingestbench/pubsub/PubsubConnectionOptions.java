package dev.ingestbench.pubsub;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.DefaultValueFactory;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/** Where Pub/Sub is: the real service, or a local emulator. Shared by both pipelines. */
public interface PubsubConnectionOptions extends PipelineOptions {

  @Description(
      "host:port of a local Pub/Sub emulator (plaintext gRPC, no credentials). Defaults to the"
          + " PUBSUB_EMULATOR_HOST environment variable; empty means the real Pub/Sub service.")
  @Default.InstanceFactory(EmulatorHostFromEnvironment.class)
  String getPubsubEmulatorHost();

  void setPubsubEmulatorHost(String value);

  /** Reads {@code PUBSUB_EMULATOR_HOST}, the variable every Google client library honours. */
  class EmulatorHostFromEnvironment implements DefaultValueFactory<String> {
    @Override
    public String create(PipelineOptions options) {
      String host = System.getenv("PUBSUB_EMULATOR_HOST");
      return host == null ? "" : host.trim();
    }
  }
}
