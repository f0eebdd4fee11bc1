package dev.ingestbench.jmh.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.awt.Color;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;

/** summary.json, report.md and a bar chart of the per-row cost of every route. */
public final class JmhReport {
  public static final String SUMMARY = "summary.json";
  public static final String REPORT = "report.md";
  public static final String CHART = "rows_per_vcpu.svg";

  private JmhReport() {}

  static void write(List<Measurement> measurements, JmhSuite.Settings settings, Path out)
      throws IOException {
    new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .writeValue(out.resolve(SUMMARY).toFile(), summary(measurements, settings));
    chart(measurements, out.resolve(CHART));
    Files.writeString(
        out.resolve(REPORT), markdown(measurements, settings), StandardCharsets.UTF_8);
  }

  static Map<String, Object> summary(List<Measurement> measurements, JmhSuite.Settings settings) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("baseline", Route.BASELINE.label());
    Map<String, Object> encodings = new LinkedHashMap<>();
    for (Measurement m : sorted(measurements)) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("rows_per_second_per_vcpu", round(m.rowsPerSecondPerVcpu()));
      e.put("us_per_row", round3(m.usPerRow()));
      e.put("error_us", round3(m.errorUs()));
      e.put("bytes_allocated_per_row", round(m.bytesAllocatedPerRow()));
      e.put("offered_by_consumer", m.route().offeredByConsumer);
      e.put("route", m.route().label());
      e.put("message_size_bytes", m.messageSizeBytes());
      e.put("vcpus_for_target", round3(m.vcpusFor(settings.targetRowsPerSecond())));
      baseline(measurements, m.messageSizeBytes())
          .ifPresent(b -> e.put("speedup_vs_baseline", round3(b.usPerRow() / m.usPerRow())));
      e.put("how", m.route().how);
      encodings.put(m.key(), e);
    }
    s.put("encodings", encodings);
    s.put("target_rows_per_second", settings.targetRowsPerSecond());
    Map<String, Object> how = new LinkedHashMap<>();
    how.put("mode", "average time per row, single thread");
    how.put("forks", settings.forks());
    how.put("measurement_iterations", settings.iterations());
    how.put("quick", settings.quick());
    how.put("error", "JMH's 99.9% confidence half-width");
    how.put("vcpus", Runtime.getRuntime().availableProcessors());
    how.put(
        "load_average_at_end", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    how.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    s.put("measured", how);
    return s;
  }

  static String markdown(List<Measurement> measurements, JmhSuite.Settings settings) {
    StringBuilder md = new StringBuilder("# Per-row cost of each row encoding\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "JMH, single thread, average time per row; %d fork(s) × %d measurement iterations%s, on %d vCPUs"
                + " (%s %s). ± is JMH's 99.9%% confidence half-width; allocation from `-prof gc`."
                + " \"vCPUs for %,.0f rows/s\" counts this per-row work alone: a pipeline adds reading,"
                + " framework and writing costs on top (see docs/jmh.md).%n%n",
            settings.forks(),
            settings.iterations(),
            settings.quick() ? " (quick: rough numbers)" : "",
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.vm.name"),
            System.getProperty("java.version"),
            settings.targetRowsPerSecond()));
    md.append("![rows per second per vCPU](").append(CHART).append(")\n\n");
    for (int size :
        new TreeSet<>(measurements.stream().map(Measurement::messageSizeBytes).toList())) {
      md.append(String.format(Locale.ROOT, "## %,d-byte messages%n%n", size));
      md.append(
          String.format(
              Locale.ROOT,
              "| Route | µs/row | Rows/s per vCPU | vs %s | Bytes allocated/row | vCPUs for %,.0f rows/s | In the consumer |%n",
              Route.BASELINE.label(),
              settings.targetRowsPerSecond()));
      md.append("|:---|---:|---:|---:|---:|---:|:---|\n");
      Measurement baseline = baseline(measurements, size).orElse(null);
      for (Measurement m : sorted(measurements)) {
        if (m.messageSizeBytes() != size) {
          continue;
        }
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %.2f ± %s | %,.0f | %s | %,.0f | %.2f | %s |%n",
                m.route().label(),
                m.usPerRow(),
                Double.isFinite(m.errorUs())
                    ? String.format(Locale.ROOT, "%.2f", m.errorUs())
                    : "n/a",
                m.rowsPerSecondPerVcpu(),
                baseline == null
                    ? "n/a"
                    : String.format(Locale.ROOT, "%.1f×", baseline.usPerRow() / m.usPerRow()),
                m.bytesAllocatedPerRow(),
                m.vcpusFor(settings.targetRowsPerSecond()),
                m.route().offeredByConsumer ? "`" + m.route().how + "`" : m.route().how));
      }
      md.append('\n');
    }
    md.append("Raw JMH output: `")
        .append(JmhSuite.RESULT_JSON)
        .append("`; every number here is in `")
        .append(SUMMARY)
        .append("`.\n");
    return md.toString();
  }

  private static void chart(List<Measurement> measurements, Path file) throws IOException {
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(900)
            .height(420)
            .title("Rows/s per vCPU by route (higher is better)")
            .xAxisTitle("route")
            .yAxisTitle("rows/s per vCPU")
            .build();
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    // XChart draws every series over the same categories: all routes measured at any size, with a
    // gap (null) where a route was not measured at that size (e.g. the Avro routes at 10,000 B).
    List<Route> routes = measurements.stream().map(Measurement::route).distinct().sorted().toList();
    List<String> labels = routes.stream().map(Route::label).toList();
    for (int size :
        new TreeSet<>(measurements.stream().map(Measurement::messageSizeBytes).toList())) {
      List<Double> values = new ArrayList<>();
      for (Route route : routes) {
        values.add(
            measurements.stream()
                .filter(m -> m.route() == route && m.messageSizeBytes() == size)
                .map(Measurement::rowsPerSecondPerVcpu)
                .findFirst()
                .orElse(null));
      }
      chart.addSeries(size + " B", labels, values);
    }
    VectorGraphicsEncoder.saveVectorGraphic(
        chart, file.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
  }

  private static List<Measurement> sorted(List<Measurement> measurements) {
    return measurements.stream()
        .sorted(
            Comparator.comparingInt(Measurement::messageSizeBytes)
                .thenComparing(m -> m.route().ordinal()))
        .toList();
  }

  private static Optional<Measurement> baseline(List<Measurement> measurements, int size) {
    return measurements.stream()
        .filter(m -> m.route() == Route.BASELINE && m.messageSizeBytes() == size)
        .findFirst();
  }

  /** Rounded, or null when JMH had no value (e.g. no error interval from too few samples). */
  private static Double round(double v) {
    return Double.isFinite(v) ? Math.round(v * 10) / 10.0 : null;
  }

  private static Double round3(double v) {
    return Double.isFinite(v) ? Math.round(v * 1000) / 1000.0 : null;
  }
}
