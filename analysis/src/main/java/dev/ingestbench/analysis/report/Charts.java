package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.model.Timeline;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.source.ConnectionsCsv;
import dev.ingestbench.contracts.ConnectionColumns;
import dev.ingestbench.contracts.MaxRateResult;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** SVG charts: one series over time with phases shaded, for rounds and for timeline analyses. */
public final class Charts {
  private static final Color LINE = new Color(33, 150, 243);

  static {
    // Charts are files, never windows: without this, a machine with a DISPLAY would start a desktop
    // toolkit.
    System.setProperty("java.awt.headless", "true");
  }

  private Charts() {}

  /**
   * Renders a throw-away chart on a background thread. The first chart of a JVM costs about half a
   * second (Java2D and its fonts load); started before a long read, that half second overlaps it
   * instead of adding to the command's time.
   */
  public static void warmUpInBackground() {
    Thread warmUp =
        new Thread(
            () -> {
              try {
                XYChart chart = chart("", "", "HH:mm");
                chart.addSeries("warm-up", new double[] {0, 1}, new double[] {0, 1});
                VectorGraphicsEncoder.saveVectorGraphic(
                    chart,
                    OutputStream.nullOutputStream(),
                    VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
              } catch (IOException | RuntimeException e) {
                // Only a head start: the real charts report any problem themselves.
              }
            },
            "chart-warm-up");
    warmUp.setDaemon(true);
    warmUp.start();
  }

  /** A round's rows/s per second, with the steady state shaded. */
  public static void throughput(RoundAnalysis a, Path file) throws IOException {
    rowsPerSecond(
        a.perSecond(),
        a.steady().map(List::of).orElse(List.of()),
        "Rows written per second (data tables)",
        "HH:mm:ss",
        file);
  }

  /** A round's consumer CPU utilisation (% of all vCPUs) per second. */
  public static void cpu(RoundAnalysis a, Path file) throws IOException {
    series(
        "Consumer CPU utilisation (% of " + a.vcpus() + " vCPUs)",
        "CPU %",
        "HH:mm:ss",
        a.cpu().stream().map(s -> Date.from(s.second().minusSeconds(1))).toList(),
        a.cpu().stream().map(s -> 100 * s.cpuSeconds() / s.vcpus()).toList(),
        List.of(),
        file);
  }

  /** Open AppendRows streams per second across every job, as the BigQuery emulator counted them. */
  public static void connections(RoundAnalysis a, Path file) throws IOException {
    List<ConnectionsCsv.Sample> all =
        a.connections().stream().filter(s -> s.job().equals(ConnectionColumns.ALL_JOBS)).toList();
    series(
        "Concurrent connections (open AppendRows streams, all jobs)",
        "connections",
        "HH:mm:ss",
        all.stream().map(s -> Date.from(s.second())).toList(),
        all.stream().map(s -> (double) s.maxOpen()).toList(),
        List.of(),
        file);
  }

  /** Rows/s per bucket of a timeline, with the given phases shaded. */
  public static void rowsPerSecond(
      Timeline timeline, List<Phase> phases, String title, String datePattern, Path file)
      throws IOException {
    series(
        title,
        "rows/s",
        datePattern,
        timeline.buckets().stream().map(b -> Date.from(b.start())).toList(),
        timeline.buckets().stream().map(Bucket::rowsPerSecond).toList(),
        phases,
        file);
  }

  /** Several named series over time (one per job), with the given phases shaded. */
  public static void lines(
      String title,
      String yTitle,
      String datePattern,
      Map<String, List<Date>> x,
      Map<String, List<Double>> y,
      List<Phase> phases,
      Path file)
      throws IOException {
    XYChart chart = chart(title, yTitle, datePattern);
    double top =
        y.values().stream().flatMap(List::stream).mapToDouble(Double::doubleValue).max().orElse(0)
            * 1.05;
    // A stage may be named as a job (round 3: the exactly-once job in the exactly-once stage), and
    // a
    // chart refuses two series of one name: such a stage's shading is labelled "stage NAME".
    shade(chart, phases, top, x.keySet());
    for (String name : x.keySet()) {
      if (!x.get(name).isEmpty()) {
        XYSeries line = chart.addSeries(name, x.get(name), y.get(name));
        line.setMarker(SeriesMarkers.NONE);
      }
    }
    VectorGraphicsEncoder.saveVectorGraphic(
        chart, file.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
  }

  /** One point per iteration and configuration: how much runs of one configuration vary. */
  public static void iterations(
      String title, String yTitle, Map<String, List<Double>> byConfiguration, Path file)
      throws IOException {
    XYChart chart =
        new XYChartBuilder()
            .width(900)
            .height(360)
            .title(title)
            .xAxisTitle("iteration")
            .yAxisTitle(yTitle)
            .build();
    chart.getStyler().setLegendVisible(true).setChartBackgroundColor(Color.WHITE);
    for (Map.Entry<String, List<Double>> e : byConfiguration.entrySet()) {
      List<Integer> xs = new ArrayList<>();
      for (int i = 1; i <= e.getValue().size(); i++) {
        xs.add(i);
      }
      if (!xs.isEmpty()) {
        chart.addSeries(e.getKey(), xs, e.getValue());
      }
    }
    VectorGraphicsEncoder.saveVectorGraphic(
        chart, file.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
  }

  /** {@code round --find-max-rate}: what each probe asked, what Pub/Sub took, what was written. */
  public static void maxRate(MaxRateResult r, Path file) throws IOException {
    List<MaxRateResult.Probe> byRate =
        r.probes().stream()
            .sorted(java.util.Comparator.comparingDouble(MaxRateResult.Probe::askedPerSecond))
            .toList();
    Map<String, List<Double>> y = new java.util.LinkedHashMap<>();
    y.put("asked", byRate.stream().map(MaxRateResult.Probe::askedPerSecond).toList());
    y.put("published", byRate.stream().map(MaxRateResult.Probe::publishedPerSecond).toList());
    y.put("written (slowest job)", byRate.stream().map(p -> p.writtenPerSecond().mean()).toList());
    againstSetting(
        "Max-rate search: each probe's rates",
        "asked msg/s",
        "per second",
        y.get("asked"),
        y,
        file);
  }

  /**
   * Series against a numeric setting (a sweep's threads, message size, ...), one point per value.
   */
  public static void againstSetting(
      String title,
      String xTitle,
      String yTitle,
      List<Double> x,
      Map<String, List<Double>> y,
      Path file)
      throws IOException {
    XYChart chart =
        new XYChartBuilder()
            .width(900)
            .height(360)
            .title(title)
            .xAxisTitle(xTitle)
            .yAxisTitle(yTitle)
            .build();
    chart.getStyler().setLegendVisible(true).setChartBackgroundColor(Color.WHITE);
    for (Map.Entry<String, List<Double>> e : y.entrySet()) {
      if (!x.isEmpty()) {
        chart.addSeries(e.getKey(), x, e.getValue());
      }
    }
    VectorGraphicsEncoder.saveVectorGraphic(
        chart, file.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
  }

  private static XYChart chart(String title, String yTitle, String datePattern) {
    XYChart chart =
        new XYChartBuilder()
            .width(900)
            .height(360)
            .title(title)
            .xAxisTitle("time (UTC)")
            .yAxisTitle(yTitle)
            .build();
    chart
        .getStyler()
        .setDatePattern(datePattern)
        .setTimezone(TimeZone.getTimeZone("UTC"))
        .setLegendVisible(true)
        .setChartBackgroundColor(Color.WHITE);
    return chart;
  }

  private static void shade(XYChart chart, List<Phase> phases, double top) {
    shade(chart, phases, top, Set.of());
  }

  private static void shade(XYChart chart, List<Phase> phases, double top, Set<String> lineNames) {
    for (Phase p : phases) {
      String name = lineNames.contains(p.name()) ? "stage " + p.name() : p.name();
      XYSeries shade =
          chart.addSeries(
              name, List.of(Date.from(p.start()), Date.from(p.end())), List.of(top, top));
      shade.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
      shade.setMarker(SeriesMarkers.NONE);
    }
  }

  /** One series over time (rows/s, MB/s, CPU %), with the given phases shaded. */
  public static void series(
      String title,
      String yTitle,
      String datePattern,
      List<Date> x,
      List<Double> y,
      List<Phase> phases,
      Path file)
      throws IOException {
    XYChart chart = chart(title, yTitle, datePattern);
    shade(chart, phases, y.stream().mapToDouble(Double::doubleValue).max().orElse(0) * 1.05);
    if (!x.isEmpty()) {
      XYSeries line = chart.addSeries(yTitle, x, y);
      line.setMarker(SeriesMarkers.NONE);
      line.setLineColor(LINE);
    }
    VectorGraphicsEncoder.saveVectorGraphic(
        chart, file.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
  }
}
