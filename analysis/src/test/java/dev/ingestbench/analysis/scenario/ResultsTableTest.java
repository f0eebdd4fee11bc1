package dev.ingestbench.analysis.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.cloud.NoCredentials;
import com.google.cloud.bigquery.BigQueryOptions;
import com.google.cloud.bigquery.TableId;
import com.sun.net.httpserver.HttpServer;
import dev.ingestbench.contracts.ResultRecord;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The real BigQuery client appending results to a loopback stand-in of the BigQuery REST API. */
class ResultsTableTest {
  private static final String TABLE_PATH =
      "/bigquery/v2/projects/ingestbench-test/datasets/bench/tables/results";

  /** What BigQuery answers for a table (the client needs its type). */
  private static final String TABLE_RESOURCE =
      "{\"kind\":\"bigquery#table\",\"type\":\"TABLE\","
          + "\"tableReference\":{\"projectId\":\"ingestbench-test\",\"datasetId\":\"bench\",\"tableId\":\"results\"}}";

  private HttpServer server;

  /** The stand-in refuses a change of the table's schema, as for a writer without the right. */
  private boolean refuseUpdate;

  private final List<String> requests = new ArrayList<>();

  /** The table's resource with a {@code labels} record of {@code labels}. */
  private static String tableWithLabels(List<String> labels) {
    StringBuilder fields = new StringBuilder();
    for (String label : labels) {
      fields.append(fields.length() == 0 ? "" : ",");
      fields.append("{\"name\":\"").append(label).append("\",\"type\":\"STRING\"}");
    }
    // A column of the user's own, outside and inside labels: a schema update must keep both.
    return TABLE_RESOURCE.substring(0, TABLE_RESOURCE.length() - 1)
        + ",\"schema\":{\"fields\":[{\"name\":\"run_id\",\"type\":\"STRING\"},"
        + "{\"name\":\"team\",\"type\":\"STRING\"},"
        + "{\"name\":\"labels\",\"type\":\"RECORD\",\"mode\":\"NULLABLE\",\"fields\":["
        + fields
        + (fields.length() == 0 ? "" : ",")
        + "{\"name\":\"cluster_name\",\"type\":\"STRING\"}"
        + "]}]}}";
  }

  private ResultsTable standIn(boolean tableExists, String insertReply) throws IOException {
    return standIn(tableExists ? TABLE_RESOURCE : null, insertReply);
  }

  /** {@code tableResource} null: the table does not exist. */
  private ResultsTable standIn(String tableResource, String insertReply) throws IOException {
    boolean tableExists = tableResource != null;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          InputStream in = exchange.getRequestBody();
          if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
            in = new GZIPInputStream(in);
          }
          String path = exchange.getRequestURI().getPath();
          // The client sends a PATCH as a POST that says so (HttpURLConnection has no PATCH).
          String override = exchange.getRequestHeaders().getFirst("X-HTTP-Method-Override");
          String method = override != null ? override : exchange.getRequestMethod();
          String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          requests.add(method + " " + path + " " + body);
          int status;
          String reply;
          if (method.equals("GET") && path.equals(TABLE_PATH)) {
            status = tableExists ? 200 : 404;
            reply =
                tableExists
                    ? tableResource
                    : "{\"error\":{\"code\":404,\"message\":\"Not found: Table ingestbench-test:bench.results\"}}";
          } else if (method.equals("POST") && path.endsWith("/datasets/bench/tables")) {
            status = 200;
            reply = TABLE_RESOURCE;
          } else if ((method.equals("PATCH") || method.equals("PUT")) && path.equals(TABLE_PATH)) {
            status = refuseUpdate ? 403 : 200;
            reply =
                refuseUpdate
                    ? "{\"error\":{\"code\":403,\"message\":\"Access Denied: bigquery.tables.update\"}}"
                    : TABLE_RESOURCE;
          } else if (path.equals(TABLE_PATH + "/insertAll")) {
            status = 200;
            reply = insertReply;
          } else {
            status = 404;
            reply = "{\"error\":{\"code\":404,\"message\":\"not expected\"}}";
          }
          byte[] bytes = reply.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(status, bytes.length);
          exchange.getResponseBody().write(bytes);
          exchange.close();
        });
    server.start();
    return new ResultsTable(
        BigQueryOptions.newBuilder()
            .setProjectId("ingestbench-test")
            .setHost("http://127.0.0.1:" + server.getAddress().getPort())
            .setCredentials(NoCredentials.getInstance())
            .build()
            .getService(),
        ResultsTable.parse("ingestbench-test:bench.results"));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  private static List<ResultRecord> records() {
    Map<String, String> labels =
        Map.of("write_method", "exactly-once", "scale", "0.01", "not_a_column", "x");
    return List.of(record("a", labels), record("all", labels));
  }

  /** Job {@code job}'s rows/s of stage a-alone, labelled {@code labels}. */
  private static ResultRecord record(String job, Map<String, String> labels) {
    return new ResultRecord(
        "r-1",
        "two-jobs",
        "local",
        1,
        "a-alone",
        job,
        "rows_per_second",
        4312.5,
        "rows/s",
        labels,
        "2026-11-23T10:00:00Z");
  }

  @Test
  void createsTheMissingTableThenAppendsEveryRecordWithAnInsertId() throws Exception {
    assertEquals(
        2, standIn(false, "{\"kind\":\"bigquery#tableDataInsertAllResponse\"}").append(records()));
    assertEquals(3, requests.size(), requests.toString());
    assertTrue(requests.get(0).startsWith("GET " + TABLE_PATH), requests.get(0));
    String create = requests.get(1);
    assertTrue(
        create.startsWith("POST ")
            && create.contains("\"name\":\"labels\"")
            && create.contains("\"type\":\"RECORD\"")
            && create.contains("\"name\":\"write_method\"")
            && create.contains("\"name\":\"timestamp\""),
        create);
    String insert = requests.get(2);
    assertTrue(insert.startsWith("POST " + TABLE_PATH + "/insertAll"), insert);
    assertTrue(insert.contains("\"insertId\":\"r-1/1/a-alone/a/rows_per_second\""), insert);
    assertTrue(
        insert.contains("\"write_method\":\"exactly-once\"") && insert.contains("\"value\":4312.5"),
        insert);
    assertTrue(!insert.contains("not_a_column"), "labels without a column are not sent: " + insert);
  }

  @Test
  void anExistingTableIsAppendedToWithoutCreatingIt() throws Exception {
    standIn(true, "{}").append(records());
    assertEquals(2, requests.size(), requests.toString());
    assertTrue(requests.get(1).contains("/insertAll"));
  }

  @Test
  void aTableOfAnEarlierReleaseGainsTheLabelsItLacksBeforeTheRowsGoIn() throws Exception {
    List<ResultRecord> records =
        List.of(
            record(
                "a",
                Map.of("write_method", "exactly-once", "source", "kafka", "sink", "emulator")));
    standIn(tableWithLabels(List.of("write_method", "scale")), "{}").append(records);
    assertEquals(3, requests.size(), requests.toString());
    String update = requests.get(1);
    // The labels record's fields: from its first old label to its own name.
    int from = update.indexOf("\"name\":\"write_method\"");
    int to = update.indexOf("\"name\":\"labels\"");
    assertTrue(from > 0 && to > from, update);
    String labels = update.substring(from, to);
    assertTrue(
        labels.contains("\"name\":\"source\"") && labels.contains("\"name\":\"cluster_name\""),
        "the missing labels added inside labels, its own kept: " + labels);
    assertTrue(
        update.contains("\"name\":\"team\"") && update.contains("\"name\":\"cluster_name\""),
        "the table's own columns kept, also inside labels: " + update);
    assertTrue(update.contains("\"mode\":\"NULLABLE\""), update);
    assertTrue(
        update.startsWith("PATCH " + TABLE_PATH) || update.startsWith("PUT " + TABLE_PATH), update);
    assertTrue(
        update.contains("\"name\":\"write_method\"")
            && update.contains("\"name\":\"source\"")
            && update.contains("\"name\":\"message_format\"")
            && update.contains("\"name\":\"run_id\""),
        "the old columns kept, the missing labels added: " + update);
    String insert = requests.get(2);
    assertTrue(insert.contains("\"source\":\"kafka\"") && insert.contains("\"sink\""), insert);
  }

  @Test
  void aTableThatCannotBeChangedStillTakesTheRowsAndTheRunSaysWhatIsMissing() throws Exception {
    refuseUpdate = true;
    List<String> notes = new ArrayList<>();
    assertEquals(
        2,
        standIn(tableWithLabels(List.of("write_method", "scale")), "{}")
            .append(records(), notes::add));
    assertTrue(requests.get(2).contains("/insertAll"), requests.toString());
    assertTrue(
        requests.get(2).contains("\"ignoreUnknownValues\":true"),
        "a label the table lacks is left out, not refused: " + requests.get(2));
    assertEquals(1, notes.size(), notes.toString());
    assertTrue(
        notes.get(0).contains("lacks the label columns") && notes.get(0).contains("message_format"),
        notes.get(0));
  }

  @Test
  void aTableWithEveryLabelIsNotChanged() throws Exception {
    standIn(tableWithLabels(ResultsTable.LABELS), "{}").append(records());
    assertEquals(2, requests.size(), requests.toString());
    assertTrue(requests.stream().noneMatch(r -> r.startsWith("PATCH") || r.startsWith("PUT")));
  }

  @Test
  void refusedRowsAreReportedWithBigQuerysReason() throws Exception {
    ResultsTable table =
        standIn(
            true,
            "{\"insertErrors\":[{\"index\":0,\"errors\":[{\"reason\":\"invalid\","
                + "\"message\":\"no such field: labels.foo\"}]}]}");
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> table.append(records()));
    assertTrue(
        e.getMessage().contains("refused 1 of 2") && e.getMessage().contains("no such field"),
        e.getMessage());
  }

  @Test
  void aTableSpecIsProjectColonDatasetDotTable() {
    assertEquals(
        TableId.of("my-project", "bench", "results"),
        ResultsTable.parse("my-project:bench.results"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ResultsTable.parse("bench.results"));
    assertTrue(e.getMessage().contains("PROJECT:DATASET.TABLE"), e.getMessage());
  }
}
