package dev.ingestbench.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * A command that hands its arguments, unchanged, to a pipeline's main: Beam flags stay Beam flags,
 * so a line that works with {@code mvn exec:java} works here too.
 */
abstract class BeamPipelineCommand implements Callable<Integer> {
  @Option(
      names = {"-h", "--help"},
      description = "Show this help and every pipeline flag.")
  boolean help;

  @Spec CommandSpec spec;

  // Mutable: picocli adds every argument it does not know to this list.
  @Unmatched List<String> beamArgs = new ArrayList<>();

  /** The pipeline's options interface, whose flags {@code --help} lists. */
  abstract Class<? extends PipelineOptions> options();

  /** Runs the pipeline with {@code args}; returns the exit code (bad flags throw). */
  abstract int runPipeline(String[] args) throws Exception;

  @Override
  public Integer call() throws Exception {
    if (help) {
      spec.commandLine().usage(System.out);
      System.out.println();
      PipelineOptionsFactory.printHelp(System.out, options());
      return 0;
    }
    return runPipeline(beamArgs.toArray(new String[0]));
  }
}
