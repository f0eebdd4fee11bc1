package dev.ingestbench.jmh.report;

import dev.ingestbench.jmh.RowEncodingBenchmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link RowEncodingBenchmark} (and its Avro twin) with the GC profiler and writes JMH's JSON,
 * {@code summary.json}, {@code report.md} and a chart. Defaults suit a noisy 2-vCPU machine: two
 * forks, five 2 s measurements after three 2 s warm-ups; {@code quick} is one fork, three 1 s
 * measurements after one warm-up, for smoke runs (three, because JMH gives no error interval for
 * fewer samples).
 */
public final class JmhSuite {
  public static final String RESULT_JSON = "jmh-result.json";

  /** What to run. */
  public record Settings(
      boolean quick, int forks, int iterations, double targetRowsPerSecond, String include) {
    public static Settings defaults(boolean quick, double targetRowsPerSecond) {
      return new Settings(
          quick,
          quick ? 1 : 2,
          quick ? 3 : 5,
          targetRowsPerSecond,
          "dev\\.ingestbench\\.jmh\\.(Avro)?RowEncodingBenchmark\\.");
    }
  }

  private JmhSuite() {}

  public static List<Measurement> run(Settings settings, Path out) throws Exception {
    Files.createDirectories(out);
    ChainedOptionsBuilder options =
        new OptionsBuilder()
            .include(settings.include())
            .forks(settings.forks())
            .measurementIterations(settings.iterations())
            .addProfiler(GCProfiler.class)
            .jvmArgsAppend("-Xmx1g")
            .resultFormat(ResultFormatType.JSON)
            .result(out.resolve(RESULT_JSON).toString());
    if (settings.quick()) {
      options
          .warmupIterations(1)
          .warmupTime(TimeValue.seconds(1))
          .measurementTime(TimeValue.seconds(1));
    }
    Collection<RunResult> results = new Runner(options.build()).run();
    List<Measurement> measurements = measurements(results);
    JmhReport.write(measurements, settings, out);
    return measurements;
  }

  static List<Measurement> measurements(Collection<RunResult> results) {
    List<Measurement> out = new ArrayList<>();
    for (RunResult run : results) {
      Optional<Route> route = Route.ofBenchmark(run.getParams().getBenchmark());
      if (route.isEmpty()) {
        continue;
      }
      Result<?> primary = run.getPrimaryResult();
      double allocated =
          run.getSecondaryResults().entrySet().stream()
              .filter(e -> e.getKey().endsWith("gc.alloc.rate.norm"))
              .mapToDouble(e -> e.getValue().getScore())
              .findFirst()
              .orElse(Double.NaN);
      out.add(
          new Measurement(
              route.get(),
              Integer.parseInt(run.getParams().getParam("messageSizeBytes")),
              primary.getScore(),
              primary.getScoreError(),
              allocated,
              primary.getSampleCount()));
    }
    return out;
  }
}
