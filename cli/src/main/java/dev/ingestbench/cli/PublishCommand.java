package dev.ingestbench.cli;

import dev.ingestbench.publisher.PublisherOptions;
import dev.ingestbench.publisher.PublisherPipeline;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/** Runs the publisher pipeline with Beam flags, exactly as {@code mvn -pl publisher exec:java}. */
@Command(
    name = "publish",
    description = {
      "Publish synthetic taxi-ride events to a Pub/Sub topic (the publisher pipeline).",
      "Takes the pipeline's Beam flags, e.g.:",
      "  ingestbench publish --project=my-project --topic=rides --createSubscriptions=rides-a --numMessages=1000000",
      "With PUBSUB_EMULATOR_HOST set (see 'ingestbench emulator') it publishes to the emulator."
    })
final class PublishCommand implements Callable<Integer> {
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and every pipeline flag.")
  boolean help;

  @Unmatched List<String> beamArgs = List.of();

  @Override
  public Integer call() throws Exception {
    if (beamArgs.contains("--help")) {
      PipelineOptionsFactory.printHelp(System.out, PublisherOptions.class);
      return 0;
    }
    PublisherPipeline.main(beamArgs.toArray(new String[0]));
    return 0;
  }
}
