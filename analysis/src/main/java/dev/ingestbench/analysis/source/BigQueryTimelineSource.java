package dev.ingestbench.analysis.source;

import com.google.cloud.bigquery.BigQuery;
import com.google.cloud.bigquery.BigQueryOptions;
import com.google.cloud.bigquery.FieldValue;
import com.google.cloud.bigquery.FieldValueList;
import com.google.cloud.bigquery.QueryJobConfiguration;
import com.google.cloud.bigquery.QueryParameterValue;
import com.google.cloud.bigquery.TableResult;
import dev.ingestbench.analysis.model.TimelineRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads {@code PROJECT.`region-REGION`.INFORMATION_SCHEMA.WRITE_API_TIMELINE} with the BigQuery
 * client. The project and region become identifiers in the query, so they are validated against
 * BigQuery's own naming rules; every value (dataset, tables, time window) is a query parameter.
 * Needs {@code bigquery.tables.list} on the project and {@code bigquery.jobs.create}.
 */
public final class BigQueryTimelineSource {
  private static final Pattern PROJECT =
      Pattern.compile("(?:[a-z][-a-z0-9.]{2,61}:)?[a-z][-a-z0-9]{4,28}[a-z0-9]");
  private static final Pattern REGION = Pattern.compile("(?:us|eu|[a-z]+-[a-z]+[0-9]{1,2})");

  /**
   * What to read: one region of one project, optionally one dataset and some tables, in [start,
   * end).
   */
  public record Request(
      String project,
      String region,
      String dataset,
      List<String> tables,
      Instant start,
      Instant end) {
    public Request {
      if (project == null || !PROJECT.matcher(project).matches()) {
        throw new IllegalArgumentException(
            "--bigquery-project " + project + " is not a Google Cloud project id");
      }
      if (region == null || !REGION.matcher(region).matches()) {
        throw new IllegalArgumentException(
            "--region "
                + region
                + " is not a BigQuery region or multi-region (e.g. asia-southeast1, us, eu)");
      }
      if (start == null || end == null || !start.isBefore(end)) {
        throw new IllegalArgumentException(
            "--from must be before --to (UTC, e.g. 2026-02-12T10:00:00Z)");
      }
      dataset = dataset == null ? "" : dataset;
      tables = tables == null ? List.of() : List.copyOf(tables);
    }
  }

  private final BigQuery bigquery;

  public BigQueryTimelineSource(BigQuery bigquery) {
    this.bigquery = bigquery;
  }

  /** A source with application-default credentials, billing queries to {@code project}. */
  public static BigQueryTimelineSource connect(String project) {
    return new BigQueryTimelineSource(
        BigQueryOptions.newBuilder().setProjectId(project).build().getService());
  }

  static String sql(Request r) {
    return "SELECT start_timestamp, project_id, project_number, dataset_id, table_id, stream_type,"
        + " error_code, total_requests, total_rows, total_input_bytes"
        + " FROM `"
        + r.project()
        + "`.`region-"
        + r.region()
        + "`.INFORMATION_SCHEMA.WRITE_API_TIMELINE"
        + " WHERE start_timestamp >= @start AND start_timestamp < @end"
        + " AND (@dataset = '' OR dataset_id = @dataset)"
        + " AND (ARRAY_LENGTH(@tables) = 0 OR table_id IN UNNEST(@tables))"
        + " ORDER BY start_timestamp";
  }

  public List<TimelineRow> read(Request r) throws InterruptedException {
    QueryJobConfiguration query =
        QueryJobConfiguration.newBuilder(sql(r))
            .setUseLegacySql(false)
            .addNamedParameter(
                "start", QueryParameterValue.timestamp(r.start().toEpochMilli() * 1_000L))
            .addNamedParameter(
                "end", QueryParameterValue.timestamp(r.end().toEpochMilli() * 1_000L))
            .addNamedParameter("dataset", QueryParameterValue.string(r.dataset()))
            .addNamedParameter(
                "tables",
                QueryParameterValue.array(r.tables().toArray(new String[0]), String.class))
            .build();
    TableResult result = bigquery.query(query);
    List<TimelineRow> rows = new ArrayList<>();
    for (FieldValueList v : result.iterateAll()) {
      rows.add(
          new TimelineRow(
              Instant.ofEpochSecond(0, v.get("start_timestamp").getTimestampValue() * 1_000L),
              text(v.get("project_id")),
              text(v.get("dataset_id")),
              text(v.get("table_id")),
              text(v.get("stream_type")),
              text(v.get("error_code")),
              number(v.get("total_requests")),
              number(v.get("total_rows")),
              number(v.get("total_input_bytes"))));
    }
    return rows;
  }

  private static String text(FieldValue v) {
    return v.isNull() ? "" : v.getStringValue();
  }

  private static long number(FieldValue v) {
    return v.isNull() ? 0 : v.getLongValue();
  }
}
