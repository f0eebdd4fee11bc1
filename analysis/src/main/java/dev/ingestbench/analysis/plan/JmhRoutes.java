package dev.ingestbench.analysis.plan;

import java.util.Map;

/**
 * The consumer's conversion cost per row by route and message size, single-threaded (docs/jmh.md: 2
 * vCPUs AMD EPYC, OpenJDK 17.0.15; µs/row at ~500 B and ~10 KB JSON messages). Between and beyond
 * the two sizes the cost is interpolated linearly in the size, clamped at the ends.
 */
final class JmhRoutes {
  /** Route to {µs/row at 500 B, µs/row at 10 KB}. */
  private static final Map<String, double[]> MICROS =
      Map.of(
          "json-column", new double[] {3.67, 13.55},
          "tablerow-typed", new double[] {7.37, 18.45},
          "beam-row", new double[] {6.15, 16.85},
          "proto", new double[] {1.18, 11.36});

  private static final double SMALL = 500;
  private static final double LARGE = 10_000;

  private JmhRoutes() {}

  /** The JMH route of a row encoding and format (docs/jmh.md's "Consumer flag" column). */
  static String route(String rowEncoding, String rowFormat) {
    return switch (rowEncoding) {
      case "proto" -> "proto";
      case "beam-row" -> "beam-row";
      default -> rowFormat.equals("typed") ? "tablerow-typed" : "json-column";
    };
  }

  static double micros(String route, int messageSize) {
    double[] at = MICROS.get(route);
    double x = Math.max(SMALL, Math.min(LARGE, messageSize));
    return at[0] + (at[1] - at[0]) * (x - SMALL) / (LARGE - SMALL);
  }
}
