package dev.ingestbench.analysis.source;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.ingestbench.contracts.ConnectionColumns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code analyze --connections}: the peak of concurrent Storage Write API connections, given as a
 * number or read from a series — a local round's {@code concurrent_connections.csv} (per second and
 * job, {@code max_open}) or an export of Monitoring's {@code write/concurrent_connections} (a time
 * column and {@code connections}, {@code concurrent_connections} or {@code value}; several series
 * at one time, e.g. per location, are summed).
 */
public final class ConnectionsSeries {
  private ConnectionsSeries() {}

  /** The peak; 0 when nothing is given. */
  public static int peak(String given) throws IOException {
    if (given == null || given.isBlank()) {
      return 0;
    }
    if (given.matches("\\d+")) {
      return Integer.parseInt(given);
    }
    Path file = Path.of(given);
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(
          "--connections " + given + " is neither a number nor a file");
    }
    Utf8Text.require(file);
    Map<String, Double> perTime = new HashMap<>();
    Map<String, Double> allJobs = new HashMap<>();
    try (MappingIterator<Map<String, String>> it =
        new CsvMapper()
            .readerFor(Map.class)
            .with(CsvSchema.emptySchema().withHeader())
            .readValues(file.toFile())) {
      int line = 1;
      while (it.hasNextValue()) {
        Map<String, String> r = it.nextValue();
        line++;
        String time =
            CsvRows.first(
                r, ConnectionColumns.EPOCH_SECOND, "minute", "timestamp", "start_timestamp");
        String value =
            CsvRows.first(
                r, ConnectionColumns.MAX_OPEN, "connections", "concurrent_connections", "value");
        if (time == null || value == null) {
          throw new IllegalArgumentException(
              file
                  + " needs a time column (epoch_second, minute, timestamp) and a"
                  + " connections column (max_open, connections, concurrent_connections or value); it has "
                  + r.keySet());
        }
        double v;
        try {
          v = Double.parseDouble(value);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              file + " line " + line + ": connections '" + value + "' is not a number");
        }
        boolean total = ConnectionColumns.ALL_JOBS.equals(r.get(ConnectionColumns.JOB));
        (total ? allJobs : perTime).merge(time, v, Double::sum);
      }
    }
    Map<String, Double> series = allJobs.isEmpty() ? perTime : allJobs;
    return (int)
        Math.round(series.values().stream().mapToDouble(Double::doubleValue).max().orElse(0));
  }

  /**
   * Per job, the most connections open in each minute, from a series with a job column (a local
   * round's {@code concurrent_connections.csv}, or an export split by job); empty when the file has
   * no job column or nothing is given: which jobs wrote when, the writers' evidence.
   */
  public static Map<String, Map<Instant, Double>> perJobMinutes(String given) throws IOException {
    Map<String, Map<Instant, Double>> perJob = new TreeMap<>();
    if (given == null || given.isBlank() || given.matches("\\d+")) {
      return perJob;
    }
    Path file = Path.of(given);
    try (MappingIterator<Map<String, String>> it =
        new CsvMapper()
            .readerFor(Map.class)
            .with(CsvSchema.emptySchema().withHeader())
            .readValues(file.toFile())) {
      while (it.hasNextValue()) {
        Map<String, String> r = it.nextValue();
        String job = r.get(ConnectionColumns.JOB);
        if (job == null || job.isBlank() || ConnectionColumns.ALL_JOBS.equals(job)) {
          continue;
        }
        String time =
            CsvRows.first(
                r, ConnectionColumns.EPOCH_SECOND, "minute", "timestamp", "start_timestamp");
        String value =
            CsvRows.first(
                r, ConnectionColumns.MAX_OPEN, "connections", "concurrent_connections", "value");
        Instant minute = minute(time);
        if (minute == null || value == null) {
          continue; // peak() has named what is wrong with such a line already
        }
        perJob
            .computeIfAbsent(job, k -> new TreeMap<>())
            .merge(minute, Double.parseDouble(value), Math::max);
      }
    }
    return perJob;
  }

  /**
   * The minute a time column's value falls in: epoch seconds, ISO-8601, or "yyyy-MM-dd HH:mm[:ss]"
   * in UTC.
   */
  static Instant minute(String time) {
    if (time == null) {
      return null;
    }
    String t = time.trim();
    Instant instant;
    try {
      if (t.matches("\\d+")) {
        instant = Instant.ofEpochSecond(Long.parseLong(t));
      } else if (t.endsWith("Z") || t.matches(".*[+-]\\d\\d:\\d\\d$")) {
        instant = OffsetDateTime.parse(t.replace(' ', 'T')).toInstant();
      } else {
        instant = LocalDateTime.parse(t.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
      }
    } catch (DateTimeException e) {
      return null;
    }
    return instant.truncatedTo(ChronoUnit.MINUTES);
  }
}
