package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.source.CpuSamplesCsv;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** SVG charts of a round: throughput over time with the steady state shaded, and CPU utilisation. */
public final class Charts {
  private static final Color STEADY_SHADE = new Color(76, 175, 80, 50);

  private Charts() {}

  /** Rows/s per second, with the steady-state window shaded. */
  public static void throughput(RoundAnalysis a, Path file) throws IOException {
    XYChart chart = base("Rows written per second (data tables)", "time (UTC)", "rows/s");
    List<Bucket> buckets = a.perSecond().buckets();
    List<Date> x = new ArrayList<>();
    List<Double> y = new ArrayList<>();
    for (Bucket b : buckets) {
      x.add(Date.from(b.start()));
      y.add(b.rowsPerSecond());
    }
    if (a.steady().isPresent()) {
      Phase steady = a.steady().get();
      double top = y.stream().mapToDouble(Double::doubleValue).max().orElse(0) * 1.05;
      XYSeries shade =
          chart.addSeries(
              "steady state",
              List.of(Date.from(steady.start()), Date.from(steady.end())),
              List.of(top, top));
      shade.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
      shade.setFillColor(STEADY_SHADE);
      shade.setLineColor(STEADY_SHADE);
      shade.setMarker(SeriesMarkers.NONE);
    }
    if (!x.isEmpty()) {
      XYSeries rows = chart.addSeries("rows/s", x, y);
      rows.setMarker(SeriesMarkers.NONE);
      rows.setLineColor(new Color(33, 150, 243));
    }
    VectorGraphicsEncoder.saveVectorGraphic(chart, file.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
  }

  /** Rows/s per bucket of any timeline, with the given phases shaded. */
  public static void timeline(
      dev.ingestbench.analysis.model.Timeline timeline, List<Phase> phases, String title, Path file) throws IOException {
    List<Date> x = new ArrayList<>();
    List<Double> y = new ArrayList<>();
    for (Bucket b : timeline.buckets()) {
      x.add(Date.from(b.start()));
      y.add(b.rowsPerSecond());
    }
    series(title, "rows/s", x, y, phases, file);
  }

  /** One series over time (rows/s, MB/s, CPU %), with the given phases shaded. */
  public static void series(
      String title, String yTitle, List<Date> x, List<Double> y, List<Phase> phases, Path file) throws IOException {
    XYChart chart = base(title, "time (UTC)", yTitle);
    chart.getStyler().setDatePattern("HH:mm");
    double top = y.stream().mapToDouble(Double::doubleValue).max().orElse(0) * 1.05;
    for (Phase p : phases) {
      XYSeries shade = chart.addSeries(p.name(), List.of(Date.from(p.start()), Date.from(p.end())), List.of(top, top));
      shade.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
      shade.setMarker(SeriesMarkers.NONE);
    }
    XYSeries rows = chart.addSeries(yTitle, x, y);
    rows.setMarker(SeriesMarkers.NONE);
    rows.setLineColor(new Color(33, 150, 243));
    VectorGraphicsEncoder.saveVectorGraphic(chart, file.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
  }

  /** Consumer CPU utilisation (% of all vCPUs) per second. */
  public static void cpu(RoundAnalysis a, Path file) throws IOException {
    XYChart chart = base("Consumer CPU utilisation (% of " + a.vcpus() + " vCPUs)", "time (UTC)", "%");
    List<Date> x = new ArrayList<>();
    List<Double> y = new ArrayList<>();
    for (CpuSamplesCsv.Sample s : a.cpu()) {
      x.add(Date.from(s.second().minusSeconds(1)));
      y.add(100 * s.cpuSeconds() / s.vcpus());
    }
    if (!x.isEmpty()) {
      XYSeries series = chart.addSeries("CPU %", x, y);
      series.setMarker(SeriesMarkers.NONE);
      series.setLineColor(new Color(244, 67, 54));
    }
    chart.getStyler().setYAxisMin(0.0).setYAxisMax(100.0);
    VectorGraphicsEncoder.saveVectorGraphic(chart, file.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
  }

  private static XYChart base(String title, String xTitle, String yTitle) {
    XYChart chart =
        new XYChartBuilder().width(900).height(360).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
    chart.getStyler().setDatePattern("HH:mm:ss").setLegendVisible(true).setChartBackgroundColor(Color.WHITE);
    chart.getStyler().setTimezone(java.util.TimeZone.getTimeZone("UTC"));
    return chart;
  }
}
