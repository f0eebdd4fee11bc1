package dev.ingestbench.bigquery;

import com.google.api.client.json.GenericJson;
import com.google.api.client.json.JsonFactory;
import com.google.api.client.json.gson.GsonFactory;
import com.google.api.services.bigquery.model.Dataset;
import com.google.api.services.bigquery.model.DatasetReference;
import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableReference;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.ingestbench.contracts.AccountedIndexes;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.JobRouting;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.SendSchedule;
import dev.ingestbench.contracts.WindowLatency;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.zip.GZIPInputStream;

/**
 * The part of BigQuery's REST API (v2) a pipeline uses around the Storage Write API: datasets.get
 * and insert (datasets always exist), tables.get, insert and delete, answered with the JSON and
 * error shapes Google's API client expects (404 {@code notFound} is what makes Beam create a
 * table). Also serves {@link EmulatorStatus} at {@link EmulatorStatus#PATH} and each job's {@link
 * AccountedIndexes}.
 */
final class RestApi implements HttpHandler {
  private static final String PREFIX = "/bigquery/v2/";
  private static final JsonFactory JSON = GsonFactory.getDefaultInstance();

  private static final String JOBS_PREFIX = "/ingestbench/v1/jobs/";
  private static final String WINDOW_LATENCY = "/window-latency";
  private static final String ROUTING = "/routing";

  /** {@code a=1&b=2} as a map; null: empty. */
  private static Map<String, String> query(String raw) {
    Map<String, String> q = new java.util.HashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          q.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
      }
    }
    return q;
  }

  private final Tables tables;
  private final TablesApiCalls calls;

  /** What BigQuery answers a request above a method's quota, reason and text as the service's. */
  static final String RATE_LIMITED =
      "Exceeded rate limits: too many api requests per user per method for this user_method. For"
          + " more information, see https://cloud.google.com/bigquery/docs/troubleshoot-quotas";

  private final Supplier<EmulatorStatus> status;
  private final Function<String, AccountedIndexes> accounted;
  private final Latencies latencies;

  /** The paced publisher's schedule and the latency it lets the server measure. */
  interface Latencies {
    void scheduled(SendSchedule step);

    List<SendSchedule> schedule();

    WindowLatency window(String job, long fromMs, long toMs);
  }

  RestApi(
      Tables tables,
      TablesApiCalls calls,
      Supplier<EmulatorStatus> status,
      Function<String, AccountedIndexes> accounted,
      Latencies latencies) {
    this.tables = tables;
    this.calls = calls;
    this.status = status;
    this.accounted = accounted;
    this.latencies = latencies;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    // The catches answer before the exchange is closed: with try (exchange) { } catch { }, the
    // resource
    // is closed first, and a refusal was never sent (the client saw an empty reply).
    try (exchange) {
      route(exchange);
    }
  }

  private void route(HttpExchange exchange) throws IOException {
    try {
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      if (path.equals(EmulatorStatus.PATH) && method.equals("GET")) {
        send(exchange, 200, RunJson.toJson(status.get()));
        return;
      }
      if (path.startsWith(JOBS_PREFIX) && path.endsWith("/accounted") && method.equals("GET")) {
        String job = path.substring(JOBS_PREFIX.length(), path.length() - "/accounted".length());
        send(exchange, 200, RunJson.toJson(accounted.apply(job)));
        return;
      }
      if (path.startsWith(JOBS_PREFIX) && path.endsWith(ROUTING) && method.equals("PUT")) {
        String job = path.substring(JOBS_PREFIX.length(), path.length() - ROUTING.length());
        try (InputStream in = body(exchange)) {
          tables.declare(
              job,
              RunJson.fromJson(
                  new String(in.readAllBytes(), StandardCharsets.UTF_8), JobRouting.class));
        }
        send(exchange, 204, null);
        return;
      }
      if (path.equals(SendSchedule.PATH) && method.equals("GET")) {
        send(exchange, 200, RunJson.toJson(latencies.schedule()));
        return;
      }
      if (path.equals(SendSchedule.PATH) && method.equals("PUT")) {
        SendSchedule step;
        try (InputStream in = body(exchange)) {
          step =
              RunJson.fromJson(
                  new String(in.readAllBytes(), StandardCharsets.UTF_8), SendSchedule.class);
        }
        latencies.scheduled(step);
        send(exchange, 204, null);
        return;
      }
      if (path.startsWith(JOBS_PREFIX) && path.endsWith(WINDOW_LATENCY) && method.equals("GET")) {
        String job = path.substring(JOBS_PREFIX.length(), path.length() - WINDOW_LATENCY.length());
        Map<String, String> q = query(exchange.getRequestURI().getRawQuery());
        if (!q.containsKey("from_ms") || !q.containsKey("to_ms")) {
          error(exchange, 400, "invalid", "give from_ms and to_ms (epoch milliseconds)");
          return;
        }
        send(
            exchange,
            200,
            RunJson.toJson(
                latencies.window(
                    job, Long.parseLong(q.get("from_ms")), Long.parseLong(q.get("to_ms")))));
        return;
      }
      if (!path.startsWith(PREFIX)) {
        error(exchange, 404, "notFound", "Not found: " + path);
        return;
      }
      String[] p = path.substring(PREFIX.length()).split("/");
      // projects/P/datasets[/D[/tables[/T]]]
      if (p.length < 3 || !p[0].equals("projects") || !p[2].equals("datasets")) {
        error(exchange, 404, "notFound", "Not found: " + path);
      } else if (p.length == 3 && method.equals("POST")) {
        Dataset dataset = JSON.fromInputStream(body(exchange), Dataset.class);
        send(
            exchange,
            200,
            JSON.toString(
                dataset.setId(p[1] + ":" + dataset.getDatasetReference().getDatasetId())));
      } else if (p.length == 4 && method.equals("GET")) {
        send(
            exchange,
            200,
            JSON.toString(
                new Dataset()
                    .setId(p[1] + ":" + p[3])
                    .setDatasetReference(
                        new DatasetReference().setProjectId(p[1]).setDatasetId(p[3]))));
      } else if (p.length == 5 && p[4].equals("tables") && method.equals("POST")) {
        long arrived = System.nanoTime();
        try {
          if (!calls.insert.admit(arrived)) {
            error(exchange, 403, "rateLimitExceeded", RATE_LIMITED);
            return;
          }
          insertTable(exchange, p[1], p[3]);
        } finally {
          calls.insert.answered(System.nanoTime() - arrived);
        }
      } else if (p.length == 6 && p[4].equals("tables")) {
        TableId id = new TableId(p[1], p[3], p[5]);
        switch (method) {
          case "GET" -> {
            long arrived = System.nanoTime();
            try {
              if (!calls.get.admit(arrived)) {
                error(exchange, 403, "rateLimitExceeded", RATE_LIMITED);
                return;
              }
              Tables.Entry entry = tables.get(id);
              if (entry == null) {
                error(
                    exchange,
                    404,
                    "notFound",
                    "Not found: Table " + p[1] + ":" + p[3] + "." + p[5]);
              } else {
                send(exchange, 200, JSON.toString(entry.table()));
              }
            } finally {
              calls.get.answered(System.nanoTime() - arrived);
            }
          }
          case "DELETE" -> {
            if (tables.delete(id)) {
              send(exchange, 204, null);
            } else {
              error(
                  exchange, 404, "notFound", "Not found: Table " + p[1] + ":" + p[3] + "." + p[5]);
            }
          }
          default ->
              error(exchange, 405, "badRequest", method + " is not supported on tables here");
        }
      } else {
        error(
            exchange,
            404,
            "notFound",
            "Not supported by the local BigQuery: " + method + " " + path);
      }
    } catch (BodyTooLarge e) {
      error(exchange, 413, "invalid", e.getMessage());
    } catch (RuntimeException | IOException e) {
      error(exchange, 400, "invalid", "Cannot read the request: " + e);
    }
  }

  /**
   * The largest request body read, counted after decompression: the REST API here takes dataset and
   * table definitions (kilobytes), and a small gzip body can inflate to gigabytes.
   */
  static final long MAX_BODY_BYTES = 10L * 1024 * 1024;

  /**
   * The request body; Google's API clients gzip what they send. It is read whole first (at most
   * {@link #MAX_BODY_BYTES} as sent) and then inflated (at most as many again): a refused body has
   * then been read to its end, so the refusal reaches the client rather than a reset connection.
   */
  private static InputStream body(HttpExchange exchange) throws IOException {
    byte[] raw = readAtMost(exchange.getRequestBody(), MAX_BODY_BYTES);
    InputStream in = new ByteArrayInputStream(raw);
    String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
    return new CappedBody(
        encoding != null && encoding.equalsIgnoreCase("gzip") ? new GZIPInputStream(in) : in);
  }

  /**
   * All of {@code in}, or BodyTooLarge (after reading the rest, up to 16 times the limit) if it is
   * longer.
   */
  private static byte[] readAtMost(InputStream in, long limit) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    long read = 0;
    int n;
    while ((n = in.read(buffer)) > 0) {
      read += n;
      if (read > limit) {
        while (read < 16 * limit && (n = in.read(buffer)) > 0) {
          read += n;
        }
        throw new BodyTooLarge();
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  /** A body of more than {@link #MAX_BODY_BYTES}. */
  private static final class BodyTooLarge extends IOException {
    BodyTooLarge() {
      super(
          "Request body larger than "
              + MAX_BODY_BYTES
              + " bytes (as sent or after decompression): refused");
    }
  }

  /** Stops reading a body at {@link #MAX_BODY_BYTES}. */
  private static final class CappedBody extends FilterInputStream {
    private long read;

    CappedBody(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      count(b < 0 ? 0 : 1);
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      count(Math.max(n, 0));
      return n;
    }

    private void count(int n) throws BodyTooLarge {
      read += n;
      if (read > MAX_BODY_BYTES) {
        throw new BodyTooLarge();
      }
    }
  }

  private void insertTable(HttpExchange exchange, String project, String dataset)
      throws IOException {
    Table table = JSON.fromInputStream(body(exchange), Table.class);
    TableReference ref = table.getTableReference();
    if (ref == null || ref.getTableId() == null) {
      error(exchange, 400, "invalid", "tableReference.tableId is required");
      return;
    }
    ref.setProjectId(project).setDatasetId(dataset);
    long now = System.currentTimeMillis();
    table
        .setId(project + ":" + dataset + "." + ref.getTableId())
        .setKind("bigquery#table")
        .setType("TABLE")
        .setCreationTime(now)
        .setLastModifiedTime(BigInteger.valueOf(now));
    if (!tables.create(new TableId(project, dataset, ref.getTableId()), table)) {
      error(exchange, 409, "duplicate", "Already Exists: Table " + table.getId());
      return;
    }
    send(exchange, 200, JSON.toString(table));
  }

  private static void error(HttpExchange exchange, int code, String reason, String message)
      throws IOException {
    GenericJson detail = new GenericJson();
    detail.putAll(Map.of("message", message, "domain", "global", "reason", reason));
    GenericJson error = new GenericJson();
    error.putAll(Map.of("code", code, "message", message, "errors", List.of(detail)));
    GenericJson body = new GenericJson();
    body.put("error", error);
    send(exchange, code, JSON.toString(body));
  }

  private static void send(HttpExchange exchange, int code, String body) throws IOException {
    if (body == null) {
      exchange.sendResponseHeaders(code, -1);
      return;
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
