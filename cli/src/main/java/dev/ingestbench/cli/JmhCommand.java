package dev.ingestbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the JMH micro-benchmarks of the consumer's per-row code. */
@Command(
    name = "jmh",
    mixinStandardHelpOptions = true,
    description = {
      "Run the JMH benchmarks of the consumer's per-row work and write JMH's JSON result.",
      "  ingestbench jmh --quick --out runs/jmh"
    })
final class JmhCommand implements Callable<Integer> {
  @Option(names = "--out", paramLabel = "DIR", defaultValue = "runs/jmh", description = "Output directory (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--quick", description = "Short warm-up and measurement, for smoke runs (numbers are rough).")
  boolean quick;

  @Option(names = "--include", paramLabel = "REGEX", defaultValue = "dev\\.ingestbench\\.jmh\\..*", description = "Benchmarks to run (default: all of ingestbench's).")
  String include;

  @Option(names = "--forks", defaultValue = "1", description = "JVM forks per benchmark (default: ${DEFAULT-VALUE}).")
  int forks;

  @Override
  public Integer call() throws Exception {
    Files.createDirectories(out);
    Path json = out.resolve("jmh-result.json");
    ChainedOptionsBuilder options =
        new OptionsBuilder()
            .include(include)
            .forks(forks)
            .resultFormat(ResultFormatType.JSON)
            .result(json.toString());
    if (quick) {
      options
          .warmupIterations(1)
          .warmupTime(TimeValue.seconds(1))
          .measurementIterations(2)
          .measurementTime(TimeValue.seconds(1));
    }
    new Runner(options.build()).run();
    System.out.println("Wrote " + json);
    return 0;
  }
}
