package dev.ingestbench.analysis.scenario;

import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.bigquery.BigQuery;
import com.google.cloud.bigquery.BigQueryException;
import com.google.cloud.bigquery.BigQueryOptions;
import com.google.cloud.bigquery.Field;
import com.google.cloud.bigquery.FieldList;
import com.google.cloud.bigquery.InsertAllRequest;
import com.google.cloud.bigquery.InsertAllResponse;
import com.google.cloud.bigquery.Schema;
import com.google.cloud.bigquery.StandardSQLTypeName;
import com.google.cloud.bigquery.StandardTableDefinition;
import com.google.cloud.bigquery.Table;
import com.google.cloud.bigquery.TableId;
import com.google.cloud.bigquery.TableInfo;
import dev.ingestbench.contracts.ResultLabel;
import dev.ingestbench.contracts.ResultRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --results-table PROJECT:DATASET.TABLE}: appends a run's {@link ResultRecord}s to a
 * BigQuery table with the client library, creating the table (the schema of {@code results.jsonl})
 * when it is missing, and adding the label columns a table of an earlier release lacks. Each row's
 * insert id is its run, iteration, stage, job and metric, so pushing the same run twice within
 * BigQuery's de-duplication window does not double it.
 */
public final class ResultsTable {
  private static final Pattern SPEC =
      Pattern.compile("([a-z][-a-z0-9.:]{4,62}):([A-Za-z0-9_]+)\\.([A-Za-z0-9_-]+)");

  /**
   * Labels the runners write ({@link ResultLabel}); each a column of the {@code labels} record, so
   * queries read {@code labels.write_method}.
   */
  public static final List<String> LABELS =
      Arrays.stream(ResultLabel.values()).map(ResultLabel::key).toList();

  private final BigQuery bigQuery;
  private final TableId table;

  public ResultsTable(BigQuery bigQuery, TableId table) {
    this.bigQuery = bigQuery;
    this.table = table;
  }

  /** Parses {@code PROJECT:DATASET.TABLE}; the message names the flag and the form. */
  public static TableId parse(String spec) {
    Matcher m = spec == null ? null : SPEC.matcher(spec);
    if (m == null || !m.matches()) {
      throw new IllegalArgumentException(
          "--results-table "
              + spec
              + " is not PROJECT:DATASET.TABLE, e.g. my-project:ingestbench.results");
    }
    return TableId.of(m.group(1), m.group(2), m.group(3));
  }

  /**
   * Fails now, not after a long run, when this machine has no Application Default Credentials to
   * append with.
   */
  public static void requireCredentials() {
    try {
      GoogleCredentials.getApplicationDefault();
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "--results-table needs Google Application Default Credentials, and none"
              + " were found: run `gcloud auth application-default login` (or set GOOGLE_APPLICATION_CREDENTIALS), or"
              + " leave the flag out and load results.jsonl later with bq load (docs/scenarios.md)");
    }
  }

  /** The client for {@code table}'s project, with Application Default Credentials. */
  public static ResultsTable forTable(TableId table) {
    return new ResultsTable(
        BigQueryOptions.newBuilder().setProjectId(table.getProject()).build().getService(), table);
  }

  public static Schema schema() {
    List<Field> labels = LABELS.stream().map(l -> Field.of(l, StandardSQLTypeName.STRING)).toList();
    return Schema.of(
        Field.of("run_id", StandardSQLTypeName.STRING),
        Field.of("scenario", StandardSQLTypeName.STRING),
        Field.of("target", StandardSQLTypeName.STRING),
        Field.of("iteration", StandardSQLTypeName.INT64),
        Field.of("stage", StandardSQLTypeName.STRING),
        Field.of("job", StandardSQLTypeName.STRING),
        Field.of("metric", StandardSQLTypeName.STRING),
        Field.of("value", StandardSQLTypeName.FLOAT64),
        Field.of("unit", StandardSQLTypeName.STRING),
        Field.of("labels", StandardSQLTypeName.STRUCT, labels.toArray(new Field[0])),
        Field.of("timestamp", StandardSQLTypeName.TIMESTAMP));
  }

  /** Appends {@code records}; returns how many. Throws naming the table and BigQuery's reason. */
  public int append(List<ResultRecord> records) {
    return append(records, note -> {});
  }

  /**
   * Appends {@code records}, saying through {@code note} what a table made by an earlier release
   * lacked; returns how many. Throws naming the table and BigQuery's reason.
   */
  public int append(List<ResultRecord> records, Consumer<String> note) {
    try {
      Table existing = bigQuery.getTable(table);
      List<String> missing = List.of();
      if (existing == null) {
        bigQuery.create(TableInfo.of(table, StandardTableDefinition.of(schema())));
      } else {
        missing = addMissingLabels(existing, note);
      }
      InsertAllRequest.Builder request = InsertAllRequest.newBuilder(table);
      // Values of a label column just added (or one that could not be) are left out, not refused:
      // BigQuery's streaming takes a while to see a new column.
      request.setIgnoreUnknownValues(!missing.isEmpty());
      for (ResultRecord r : records) {
        request.addRow(
            r.runId() + "/" + r.iteration() + "/" + r.stage() + "/" + r.job() + "/" + r.metric(),
            row(r));
      }
      InsertAllResponse response = bigQuery.insertAll(request.build());
      if (response.hasErrors()) {
        List<String> errors = new ArrayList<>();
        response
            .getInsertErrors()
            .forEach((row, e) -> errors.add("row " + row + ": " + e.get(0).getMessage()));
        throw new IllegalStateException(
            "BigQuery refused "
                + errors.size()
                + " of "
                + records.size()
                + " results in "
                + spec()
                + ": "
                + String.join("; ", errors.subList(0, Math.min(3, errors.size()))));
      }
      return records.size();
    } catch (BigQueryException e) {
      throw new IllegalStateException(
          "appending to "
              + spec()
              + " failed: "
              + e.getMessage()
              + " (check the dataset exists and you may write to it; results.jsonl keeps the results)",
          e);
    }
  }

  /**
   * A table made by an earlier release lacks the labels added since: they are added to its {@code
   * labels} record as nullable columns (BigQuery adds them in place; the rows already there read
   * null), so no label a run writes is dropped for good. Returns the labels it lacked; says what
   * came of adding them (a writer may lack the right to change the table: the rows go in without
   * them).
   */
  private List<String> addMissingLabels(Table existing, Consumer<String> note) {
    Schema schema = existing.getDefinition().getSchema();
    if (schema == null) {
      return List.of(); // not told: the insert says what BigQuery refuses
    }
    List<Field> fields = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (Field field : schema.getFields()) {
      if (field.getName().equals("labels") && field.getSubFields() != null) {
        List<Field> labels = new ArrayList<>(field.getSubFields());
        for (String label : LABELS) {
          if (labels.stream().noneMatch(l -> l.getName().equalsIgnoreCase(label))) {
            labels.add(
                Field.newBuilder(label, StandardSQLTypeName.STRING)
                    .setMode(Field.Mode.NULLABLE)
                    .build());
            missing.add(label);
          }
        }
        field = field.toBuilder().setType(StandardSQLTypeName.STRUCT, FieldList.of(labels)).build();
      }
      fields.add(field);
    }
    if (missing.isEmpty()) {
      return missing;
    }
    try {
      existing.toBuilder()
          .setDefinition(StandardTableDefinition.of(Schema.of(fields)))
          .build()
          .update();
      note.accept(
          spec()
              + " gained the label columns "
              + missing
              + ": BigQuery takes a while to take values for a new column, so this run's rows may"
              + " read null there (results.jsonl has them all)");
    } catch (BigQueryException e) {
      note.accept(
          spec()
              + " lacks the label columns "
              + missing
              + " and they could not be added ("
              + e.getMessage()
              + "): this run's rows go in without them (results.jsonl has them all)");
    }
    return missing;
  }

  private static Map<String, Object> row(ResultRecord r) {
    Map<String, Object> labels = new LinkedHashMap<>();
    r.labels()
        .forEach(
            (k, v) -> {
              if (LABELS.contains(k)) {
                labels.put(k, v);
              }
            });
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("run_id", r.runId());
    row.put("scenario", r.scenario());
    row.put("target", r.target());
    row.put("iteration", r.iteration());
    row.put("stage", r.stage());
    row.put("job", r.job());
    row.put("metric", r.metric());
    row.put("value", r.value());
    row.put("unit", r.unit());
    row.put("labels", labels);
    row.put("timestamp", r.timestamp());
    return row;
  }

  private String spec() {
    return table.getProject() + ":" + table.getDataset() + "." + table.getTable();
  }
}
