package dev.ingestbench.analysis.source;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.ingestbench.contracts.ConnectionColumns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the BigQuery emulator's open connections per second ({@code concurrent_connections.csv}).
 */
public final class ConnectionsCsv {
  /**
   * One second of one job ({@link ConnectionColumns#ALL_JOBS}: every job).
   *
   * @param appendServerMicros the emulator's time answering the appends it answered in the second
   *     (0 in a file written before it was kept)
   */
  public record Sample(
      Instant second, String job, int maxOpen, int opened, int refused, long appendServerMicros) {}

  private ConnectionsCsv() {}

  /** The samples, or none when the run had no emulator process (older runs, in-process sink). */
  public static List<Sample> read(Path file) throws IOException {
    List<Sample> samples = new ArrayList<>();
    if (!Files.isRegularFile(file)) {
      return samples;
    }
    try (MappingIterator<Map<String, String>> it =
        new CsvMapper()
            .readerFor(Map.class)
            .with(CsvSchema.emptySchema().withHeader())
            .readValues(file.toFile())) {
      while (it.hasNextValue()) {
        Map<String, String> r = it.nextValue();
        try {
          samples.add(
              new Sample(
                  Instant.ofEpochSecond(Long.parseLong(r.get(ConnectionColumns.EPOCH_SECOND))),
                  r.get(ConnectionColumns.JOB),
                  Integer.parseInt(r.get(ConnectionColumns.MAX_OPEN)),
                  Integer.parseInt(r.get(ConnectionColumns.OPENED)),
                  Integer.parseInt(r.get(ConnectionColumns.REFUSED)),
                  r.get(ConnectionColumns.APPEND_SERVER_MICROS) == null
                      ? 0
                      : Long.parseLong(r.get(ConnectionColumns.APPEND_SERVER_MICROS))));
        } catch (RuntimeException e) {
          throw new IOException(
              file + ": row " + r + " is not a connection sample (" + e.getMessage() + ")");
        }
      }
    }
    return samples;
  }
}
