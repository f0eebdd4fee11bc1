package dev.ingestbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A loopback stand-in of the BigQuery REST API: datasets and tables (missing until created), and
 * {@code jobs.query} answering WRITE_API_TIMELINE with one row per minute of the queried window
 * (60,000 rows, 30 MB each), as the view would for a table written at 1,000 rows/s.
 */
final class BigQueryStandIn implements AutoCloseable {
  private static final ObjectMapper JSON = JsonReplies.JSON;
  private final HttpServer server;
  final List<String> requests = new ArrayList<>();
  final Set<String> created = new LinkedHashSet<>();
  final List<JsonNode> queries = new ArrayList<>();

  BigQueryStandIn() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
  }

  private synchronized void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      JsonNode body = JsonReplies.body(exchange);
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getPath().replaceFirst("^/bigquery/v2", "");
      requests.add(method + " " + path);
      if (method.equals("GET")
          && (path.matches("/projects/[^/]+/datasets/[^/]+")
              || path.matches("/projects/[^/]+/datasets/[^/]+/tables/[^/]+"))) {
        if (created.contains(path)) {
          JsonReplies.send(exchange, 200, JSON.createObjectNode().put("id", path));
        } else {
          JsonReplies.send(exchange, 404, JsonReplies.error(404, "Not found: " + path));
        }
      } else if (method.equals("POST") && path.matches("/projects/[^/]+/datasets")) {
        created.add(path + "/" + body.path("datasetReference").path("datasetId").asText());
        JsonReplies.send(exchange, 200, body);
      } else if (method.equals("POST") && path.matches("/projects/[^/]+/datasets/[^/]+/tables")) {
        created.add(path + "/" + body.path("tableReference").path("tableId").asText());
        JsonReplies.send(exchange, 200, body);
      } else if (method.equals("POST") && path.matches("/projects/[^/]+/queries")) {
        queries.add(body);
        JsonReplies.send(exchange, 200, timeline(body));
      } else {
        JsonReplies.send(
            exchange, 404, JsonReplies.error(404, "not recorded: " + method + " " + path));
      }
    }
  }

  private static ObjectNode timeline(JsonNode query) {
    Instant start = null;
    Instant end = null;
    for (JsonNode p : query.path("queryParameters")) {
      String v = p.path("parameterValue").path("value").asText();
      if (p.path("name").asText().equals("start")) {
        start = parse(v);
      } else if (p.path("name").asText().equals("end")) {
        end = parse(v);
      }
    }
    ObjectNode reply =
        JSON.createObjectNode().put("kind", "bigquery#queryResponse").put("jobComplete", true);
    ArrayNode fields = reply.putObject("schema").putArray("fields");
    String[][] columns = {
      {"start_timestamp", "TIMESTAMP"},
      {"project_id", "STRING"},
      {"project_number", "INTEGER"},
      {"dataset_id", "STRING"},
      {"table_id", "STRING"},
      {"stream_type", "STRING"},
      {"error_code", "STRING"},
      {"total_requests", "INTEGER"},
      {"total_rows", "INTEGER"},
      {"total_input_bytes", "INTEGER"}
    };
    for (String[] c : columns) {
      fields.addObject().put("name", c[0]).put("type", c[1]).put("mode", "NULLABLE");
    }
    reply
        .putObject("jobReference")
        .put("projectId", "ingestbench-test")
        .put("jobId", "job_standin")
        .put("location", "asia-southeast1");
    ArrayNode rows = reply.putArray("rows");
    for (Instant m = start.truncatedTo(ChronoUnit.MINUTES);
        m.isBefore(end);
        m = m.plusSeconds(60)) {
      ArrayNode f = rows.addObject().putArray("f");
      f.addObject().put("v", String.format(Locale.ROOT, "%.1fE0", (double) m.getEpochSecond()));
      f.addObject().put("v", "ingestbench-test");
      f.addObject().put("v", "123");
      f.addObject().put("v", "ingestbench");
      f.addObject().put("v", "taxi_rides");
      f.addObject().put("v", "DEFAULT");
      f.addObject().putNull("v");
      f.addObject().put("v", "60");
      f.addObject().put("v", "60000");
      f.addObject().put("v", "30000000");
    }
    reply.put("totalRows", Integer.toString(rows.size()));
    return reply;
  }

  private static Instant parse(String bigQueryTimestamp) {
    // "2026-11-23 08:01:00.000000+00:00" as the client sends timestamp parameters
    String iso = bigQueryTimestamp.trim().replace(' ', 'T').replaceAll("\\+00:00$", "Z");
    if (!iso.endsWith("Z")) {
      iso = iso + "Z";
    }
    return Instant.parse(iso);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
