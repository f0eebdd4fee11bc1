package dev.ingestbench.analysis.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.cloud.NoCredentials;
import com.google.cloud.bigquery.BigQueryOptions;
import com.sun.net.httpserver.HttpServer;
import dev.ingestbench.analysis.model.TimelineRow;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The real BigQuery client against a recorded jobs.query response served on loopback. */
class BigQueryTimelineSourceTest {
  private static final Path RECORDED =
      Path.of(
          "src", "test", "resources", "recorded", "bigquery_jobs_query_write_api_timeline.json");
  private HttpServer server;
  private final List<String> requests = new ArrayList<>();

  @BeforeEach
  void serveRecordedResponse() throws IOException {
    byte[] body = Files.readAllBytes(RECORDED);
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          InputStream in = exchange.getRequestBody();
          if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
            in = new GZIPInputStream(in); // the client compresses request bodies
          }
          String request =
              exchange.getRequestMethod()
                  + " "
                  + exchange.getRequestURI().getPath()
                  + " "
                  + new String(in.readAllBytes(), StandardCharsets.UTF_8);
          requests.add(request);
          boolean query =
              exchange.getRequestURI().getPath().endsWith("/projects/ingestbench-test/queries");
          byte[] reply =
              query
                  ? body
                  : "{\"error\":{\"code\":404,\"message\":\"not recorded\"}}"
                      .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(query ? 200 : 404, reply.length);
          exchange.getResponseBody().write(reply);
          exchange.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private BigQueryTimelineSource source() {
    return new BigQueryTimelineSource(
        BigQueryOptions.newBuilder()
            .setProjectId("ingestbench-test")
            .setHost("http://127.0.0.1:" + server.getAddress().getPort())
            .setCredentials(NoCredentials.getInstance())
            .build()
            .getService());
  }

  @Test
  void readsTheViewWithParametersAndConvertsEveryRow() throws Exception {
    List<TimelineRow> rows =
        source()
            .read(
                new BigQueryTimelineSource.Request(
                    "ingestbench-test",
                    "asia-southeast1",
                    "demo_dataset_asia",
                    List.of("taxi_events_perf_round_3"),
                    Instant.parse("2026-02-12T10:00:00Z"),
                    Instant.parse("2026-02-12T12:00:00Z")));
    assertEquals(2, rows.size());
    assertEquals(Instant.parse("2026-02-12T10:54:00Z"), rows.get(0).start());
    assertEquals("taxi_events_perf_round_3", rows.get(0).tableId());
    assertEquals(1_271_339L, rows.get(0).totalRows());
    assertEquals(1_735_500_000L, rows.get(1).totalInputBytes());
    assertEquals("", rows.get(1).errorCode(), "a NULL error code reads as empty");
    String request = requests.get(0);
    assertTrue(request.startsWith("POST ") && request.contains("region-asia-southeast1"), request);
    assertTrue(
        request.contains("\"name\":\"start\"") && request.contains("\"name\":\"tables\""), request);
    assertFalse(
        request.contains("'taxi_events_perf_round_3'"),
        "values travel as parameters, not in the SQL text");
  }

  @Test
  void identifiersThatCouldBreakOutOfTheQueryAreRefused() {
    Instant a = Instant.parse("2026-02-12T10:00:00Z");
    Instant b = Instant.parse("2026-02-12T12:00:00Z");
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new BigQueryTimelineSource.Request(
                        "p-proj1", "asia-southeast1`.x; --", null, null, a, b))
            .getMessage()
            .startsWith("--region"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> new BigQueryTimelineSource.Request("Bad_Project", "us", null, null, a, b))
            .getMessage()
            .startsWith("--bigquery-project"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> new BigQueryTimelineSource.Request("good-project", "us", null, null, b, a))
            .getMessage()
            .startsWith("--from"));
  }
}
