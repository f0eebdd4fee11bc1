package dev.ingestbench.jmh.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
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
    Document doc =
        new Document()
            .heading(1, "Per-row cost of each row encoding")
            .paragraph(
                String.format(
                    Locale.ROOT,
                    "JMH, single thread, average time per row; %d fork(s) × %d measurement iterations%s, on %d vCPUs"
                        + " (%s %s). ± is JMH's 99.9%% confidence half-width; allocation from `-prof gc`."
                        + " \"vCPUs for %,.0f rows/s\" counts this per-row work alone: a pipeline adds reading,"
                        + " framework and writing costs on top (see docs/jmh.md).",
                    settings.forks(),
                    settings.iterations(),
                    settings.quick() ? " (quick: rough numbers)" : "",
                    Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.vm.name"),
                    System.getProperty("java.version"),
                    settings.targetRowsPerSecond()))
            .image("rows per second per vCPU", CHART);
    for (int size :
        new TreeSet<>(measurements.stream().map(Measurement::messageSizeBytes).toList())) {
      Table t =
          Table.of(
              Column.text("Route"),
              Column.number("µs/row"),
              Column.number("Rows/s per vCPU"),
              Column.number("vs " + Route.BASELINE.label()),
              Column.number("Bytes allocated/row"),
              Column.number("vCPUs for " + Numbers.f0(settings.targetRowsPerSecond()) + " rows/s"),
              Column.text("In the consumer"));
      Measurement baseline = baseline(measurements, size).orElse(null);
      for (Measurement m : sorted(measurements)) {
        if (m.messageSizeBytes() != size) {
          continue;
        }
        t.row(
            m.route().label(),
            Numbers.f2(m.usPerRow()) + " ± " + Numbers.f2(m.errorUs()),
            Numbers.f0(m.rowsPerSecondPerVcpu()),
            baseline == null
                ? "n/a"
                : String.format(Locale.ROOT, "%.1f×", baseline.usPerRow() / m.usPerRow()),
            // NaN: the gc profiler recorded nothing (summary.json writes null): not measured.
            Double.isNaN(m.bytesAllocatedPerRow())
                ? Numbers.MISSING
                : Numbers.f0(m.bytesAllocatedPerRow()),
            Numbers.f2(m.vcpusFor(settings.targetRowsPerSecond())),
            m.route().offeredByConsumer ? "`" + m.route().how + "`" : m.route().how);
      }
      doc.heading(2, Numbers.count(size) + "-byte messages").table(t);
    }
    return doc.paragraph(
            "Raw JMH output: `"
                + JmhSuite.RESULT_JSON
                + "`; every number here is in `"
                + SUMMARY
                + "`.")
        .markdown();
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
