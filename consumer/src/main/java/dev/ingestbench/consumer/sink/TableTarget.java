package dev.ingestbench.consumer.sink;

import com.google.api.services.bigquery.model.TableRow;
import dev.ingestbench.consumer.rows.RowSchemas;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.job.TableCreation;
import dev.ingestbench.contracts.job.TableRouting;
import dev.ingestbench.contracts.job.TableSkew;
import java.io.Serializable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where rows go: one table, or {@code tables} tables {@code TABLE_0..TABLE_N-1} chosen by event
 * index as {@link TableRouting} says (dynamic destinations, each destination costing its own
 * streams and connections), made as {@code creation} says.
 */
public record TableTarget(
    String project, String dataset, String table, TableRouting routing, TableCreation creation)
    implements Serializable {
  private static final Pattern SPEC =
      Pattern.compile(
          "(?:([a-z][-a-z0-9:.]{4,61}[a-z0-9])[:.])?([A-Za-z0-9_]{1,1024})\\.([-A-Za-z0-9_]{1,1024})");

  /** Parses {@code [PROJECT:]DATASET.TABLE}, naming the flag in any error. */
  public static TableTarget parse(
      String flag,
      String spec,
      String defaultProject,
      int tables,
      TableSkew skew,
      TableCreation creation) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException(
          flag + " is required: give PROJECT:DATASET.TABLE or DATASET.TABLE");
    }
    Matcher m = SPEC.matcher(spec.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          flag + "=" + spec + " is not a table: expected PROJECT:DATASET.TABLE or DATASET.TABLE");
    }
    String project = m.group(1) != null ? m.group(1) : defaultProject;
    if (project == null || project.isBlank()) {
      throw new IllegalArgumentException(
          flag + "=" + spec + " names no project: add --project or write PROJECT:DATASET.TABLE");
    }
    if (tables < 1 || tables > TableRouting.MAX_TABLES) {
      throw new IllegalArgumentException("--destinationTables=" + TableRouting.outOfRange(tables));
    }
    return new TableTarget(
        project, m.group(2), m.group(3), new TableRouting(tables, skew), creation);
  }

  /** The dead-letter table beside the main one. */
  public TableTarget deadLetters() {
    return new TableTarget(
        project,
        dataset,
        table + RunFiles.DEAD_LETTER_TABLE_SUFFIX,
        TableRouting.ONE,
        TableCreation.IF_NEEDED);
  }

  public int tables() {
    return routing.tables();
  }

  /** The table id of destination {@code k}. */
  public String tableId(int k) {
    return tables() == 1 ? table : table + "_" + k;
  }

  public String spec(int k) {
    return project + ":" + dataset + "." + tableId(k);
  }

  /** The event index column of a TableRow (a Long, or what a JSON coder made of it). */
  public static Long eventIndexOf(TableRow row) {
    Object value = row.get(RowSchemas.EVENT_INDEX);
    if (value instanceof Number number) {
      return number.longValue();
    }
    if (value instanceof String text) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }
}
