package dev.ingestbench.cli;

import dev.ingestbench.consumer.ConsumerOptions;
import dev.ingestbench.consumer.local.LocalConsumer;
import org.apache.beam.sdk.options.PipelineOptions;
import picocli.CommandLine.Command;

/** Runs the consumer pipeline with Beam flags, exactly as {@code mvn -pl consumer exec:java}. */
@Command(
    name = "consume",
    description = {
      "Run the consumer pipeline: Pub/Sub (or --source=synthetic) -> rows -> BigQuery Storage Write API.",
      "Takes the pipeline's Beam flags, e.g.:",
      "  ingestbench consume --source=synthetic --syntheticMessages=500000 \\",
      "      --outputTable=bench.rides --project=ingestbench-local --localOutputDir=runs/consumer",
      "Without --runner it runs on embedded Flink into a BigQuery emulator inside its JVM, or a",
      "running one with --storageWriteEndpoint=HOST:PORT --bigQueryEndpoint=http://HOST:PORT.",
      "Exit codes: 0 everything accounted for (or submitted), 1 incomplete, 2 bad flags, 3 failed."
    })
final class ConsumeCommand extends BeamPipelineCommand {
  @Override
  Class<? extends PipelineOptions> options() {
    return ConsumerOptions.class;
  }

  @Override
  int runPipeline(String[] args) throws Exception {
    return LocalConsumer.run(args).exitCode();
  }
}
