package dev.ingestbench.pubsubload;

import java.time.Instant;
import java.util.Locale;

/**
 * One second of a load test, as {@code samples.csv} holds it: counts in that second (not running
 * totals), the phase it belonged to, and that second's p99 latencies (0 when nothing was timed).
 */
record LoadSample(
    Instant second,
    long elapsedSeconds,
    String phase,
    long published,
    long acked,
    long errors,
    long received,
    long duplicates,
    long bytesAcked,
    long bytesReceived,
    double publishP99Ms,
    double endToEndP99Ms) {

  static final String HEADER =
      "second,elapsed_seconds,phase,published,acked,errors,received,duplicates,bytes_published,"
          + "bytes_received,publish_p99_ms,end_to_end_p99_ms";

  static final String BURN_IN = "burn-in";
  static final String MEASURE = "measure";
  static final String DRAIN = "drain";

  String csv() {
    return String.format(
        Locale.ROOT,
        "%s,%d,%s,%d,%d,%d,%d,%d,%d,%d,%.3f,%.3f",
        second,
        elapsedSeconds,
        phase,
        published,
        acked,
        errors,
        received,
        duplicates,
        bytesAcked,
        bytesReceived,
        publishP99Ms,
        endToEndP99Ms);
  }
}
