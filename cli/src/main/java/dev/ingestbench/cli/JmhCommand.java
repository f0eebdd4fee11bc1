package dev.ingestbench.cli;

import dev.ingestbench.jmh.report.JmhReport;
import dev.ingestbench.jmh.report.JmhSuite;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the JMH suite of the consumer's per-row encodings and writes its report. */
@Command(
    name = "jmh",
    mixinStandardHelpOptions = true,
    description = {
      "Measure the per-row CPU cost of every row encoding (JSON column, typed TableRow, Beam Row,"
          + " generated proto, bigquerystorage's JSON path, parse only, bytes copy) for 500 B and"
          + " 10 KB messages with JMH, and write jmh-result.json, summary.json, report.md and a"
          + " chart.",
      "  ingestbench jmh --quick --out runs/jmh      # a few minutes, rough numbers",
      "  ingestbench jmh --out runs/jmh               # ~10 minutes on 2 vCPUs"
    })
final class JmhCommand implements Callable<Integer> {
  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "runs/jmh",
      description = "Output directory (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--quick", description = "One fork, short iterations: for smoke runs.")
  boolean quick;

  @Option(
      names = "--targetRowsPerSecond",
      paramLabel = "ROWS/S",
      defaultValue = "200000",
      description = "Rate for the \"vCPUs needed\" column (default: ${DEFAULT-VALUE}).")
  double targetRowsPerSecond;

  @Option(names = "--forks", description = "JMH forks per benchmark (default: 2, quick: 1).")
  Integer forks;

  @Option(
      names = "--iterations",
      description = "Measurement iterations per fork (default: 5, quick: 2).")
  Integer iterations;

  @Option(
      names = "--include",
      paramLabel = "REGEX",
      description = "Only benchmarks matching REGEX, e.g. '.*proto'.")
  String include;

  @Override
  public Integer call() throws Exception {
    if (targetRowsPerSecond <= 0) {
      throw new IllegalArgumentException(
          "--targetRowsPerSecond " + targetRowsPerSecond + " must be positive");
    }
    JmhSuite.Settings defaults = JmhSuite.Settings.defaults(quick, targetRowsPerSecond);
    JmhSuite.Settings settings =
        new JmhSuite.Settings(
            quick,
            forks != null ? forks : defaults.forks(),
            iterations != null ? iterations : defaults.iterations(),
            targetRowsPerSecond,
            include != null ? include : defaults.include());
    JmhSuite.run(settings, out);
    System.out.println(
        "Wrote "
            + out.resolve(JmhReport.REPORT)
            + ", "
            + out.resolve(JmhReport.SUMMARY)
            + " and "
            + out.resolve(JmhSuite.RESULT_JSON));
    return 0;
  }
}
