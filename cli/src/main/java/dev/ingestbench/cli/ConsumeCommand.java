package dev.ingestbench.cli;

import dev.ingestbench.consumer.ConsumerOptions;
import dev.ingestbench.consumer.ConsumerPipeline;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/** Runs the consumer pipeline with Beam flags, exactly as {@code mvn -pl consumer exec:java}. */
@Command(
    name = "consume",
    description = {
      "Run the consumer pipeline: Pub/Sub (or --source=synthetic) -> rows -> BigQuery Storage Write API.",
      "Takes the pipeline's Beam flags, e.g.:",
      "  ingestbench consume --source=synthetic --syntheticMessages=500000 --outputTable=bench.rides"
          + " --project=ingestbench-local --localOutputDir=runs/consumer",
      "Without --runner it runs on embedded Flink into the local BigQuery sink."
    })
final class ConsumeCommand implements Callable<Integer> {
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and every pipeline flag.")
  boolean help;

  @Unmatched List<String> beamArgs = List.of();

  @Override
  public Integer call() throws Exception {
    if (beamArgs.contains("--help")) {
      PipelineOptionsFactory.printHelp(System.out, ConsumerOptions.class);
      return 0;
    }
    ConsumerPipeline.main(beamArgs.toArray(new String[0]));
    return 0;
  }
}
