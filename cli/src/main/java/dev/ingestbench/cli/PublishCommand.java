package dev.ingestbench.cli;

import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.publisher.PublisherOptions;
import dev.ingestbench.publisher.PublisherPipeline;
import org.apache.beam.sdk.options.PipelineOptions;
import picocli.CommandLine.Command;

/** Runs the publisher pipeline with Beam flags, exactly as {@code mvn -pl publisher exec:java}. */
@Command(
    name = "publish",
    description = {
      "Publish synthetic taxi-ride events to a Pub/Sub topic (the publisher pipeline).",
      "Takes the pipeline's Beam flags, e.g.:",
      "  ingestbench publish --project=my-project --topic=rides --createSubscriptions=rides-a \\",
      "      --numMessages=1000000",
      "With PUBSUB_EMULATOR_HOST set (see 'ingestbench emulator') it publishes to the emulator."
    })
final class PublishCommand extends BeamPipelineCommand {
  @Override
  Class<? extends PipelineOptions> options() {
    return PublisherOptions.class;
  }

  @Override
  int runPipeline(String[] args) throws Exception {
    PublisherPipeline.run(PublisherPipeline.parse(args));
    return ExitCodes.OK;
  }
}
