package dev.ingestbench.analysis.plan;

import java.util.Locale;

/**
 * The CPU one row costs a Dataflow worker end to end (read, convert, write), from a measured round,
 * adjusted for the row encoding by the JMH figures of the consumer's own conversion code.
 *
 * @param microsPerRow vCPU-microseconds per row
 * @param measurement the round it comes from, and what it was measured with
 * @param adjustment how the encoding and size were accounted for, or null when they were not
 */
public record PerRowCost(double microsPerRow, String measurement, String adjustment) {

  /**
   * A published round: {@code rowsPerSecond} on {@code vcpus} at {@code cpu} utilisation, so each
   * busy vCPU-second wrote {@code rowsPerSecond / (vcpus * cpu)} rows.
   */
  record Round(String name, double rowsPerSecond, int vcpus, double cpu, String note) {
    double microsPerRow() {
      return 1e6 * vcpus * cpu / rowsPerSecond;
    }

    String describe() {
      return String.format(
          Locale.ROOT,
          "%s: %,.0f rows/s on %d vCPUs at %.0f%% CPU = %,.0f rows per vCPU-second (%s)",
          name,
          rowsPerSecond,
          vcpus,
          cpu * 100,
          1e6 / microsPerRow(),
          note);
    }
  }

  /**
   * Java, JSON messages of ~500 B, json-column TableRows, at-least-once with the pool, Runner v2
   * and Streaming Engine, 3 n2-highcpu-8 workers. Its CPU was not published: taken as 100%, so a
   * plan from it errs on the side of more vCPUs.
   */
  static final Round ROUND_4 =
      new Round(
          "published round 4",
          339_000,
          24,
          1.0,
          "Java, JSON ~500 B, json-column TableRow, at-least-once with the pool; its CPU was not"
              + " published and is taken as 100%, which errs towards more vCPUs");

  /**
   * What a Dataflow vCPU wrote in published round 4 ("published round 4: 339,000 rows/s on 24 vCPUs
   * at 100% CPU = 14,125 rows per vCPU-second (...)"), for a local figure to be read against.
   */
  public static String publishedJavaRate() {
    return ROUND_4.describe();
  }

  /** Java, Avro ~88 B into a 14-column row, 4 tables: two jobs at 99% CPU wrote ~879k rows/s. */
  static final Round ROUND_5 =
      new Round(
          "published round 5",
          879_000 / 2.0,
          24,
          0.99,
          "Java, Pub/Sub Avro ~88 B into 14-column rows, 4 tables, at-least-once with the pool; two"
              + " jobs together at 99% CPU");

  /** The same from Kafka: ~401k rows/s alone at ~80% CPU. */
  static final Round ROUND_6 =
      new Round(
          "published round 6",
          401_000,
          24,
          0.80,
          "Java, Kafka Avro ~88 B into 14-column rows, 4 tables, at-least-once with the pool");
}
