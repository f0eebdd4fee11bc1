package dev.ingestbench.consumer;

/**
 * Runs the consumer on this machine against a BigQuery emulator, to completion. The pipeline module
 * ships the pipeline only (it is what a Flex Template runs on Dataflow); the driver and the
 * in-process emulator live in the consumer-local module, found through {@link java.util.ServiceLoader}
 * when it is on the classpath.
 */
public interface LocalDriver {
  /** Parses {@code args} with the local defaults and runs the consumer locally. */
  ConsumerPipeline.Outcome drive(String[] args) throws Exception;
}
