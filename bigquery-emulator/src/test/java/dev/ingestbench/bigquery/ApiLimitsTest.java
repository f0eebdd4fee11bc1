package dev.ingestbench.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.EmulatorStatus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The limits many tables meet: tables.get and insert per second, CreateWriteStream's slowdown. */
class ApiLimitsTest {
  private static final long MS = 1_000_000L;

  @Test
  void aMethodsQuotaAdmitsASecondsRequestsThenRefillsAtItsRate() {
    MethodQuota quota = new MethodQuota(10, 0);
    int admitted = 0;
    for (int i = 0; i < 25; i++) {
      admitted += quota.admit(0) ? 1 : 0;
    }
    assertEquals(10, admitted, "a second's worth at once");
    assertFalse(quota.admit(50 * MS), "half a request refilled in 50 ms");
    assertTrue(quota.admit(100 * MS), "one refilled in 100 ms");
    assertEquals(27, quota.calls.get());
    assertEquals(16, quota.throttled.get());
    MethodQuota none = new MethodQuota(0, 0);
    for (int i = 0; i < 1_000; i++) {
      assertTrue(none.admit(0));
    }
  }

  @Test
  void createWriteStreamSlowsByItsRateAboveTheThresholdAndNotBelow() {
    CreateStreamSlowdown slowdown = new CreateStreamSlowdown(new ApiLimits(100, 2, 100));
    assertEquals(0, slowdown.delayNanos(0));
    assertEquals(0, slowdown.delayNanos(100 * MS));
    assertEquals(100 * MS, slowdown.delayNanos(200 * MS), "3 calls in a second: 1 above");
    assertEquals(200 * MS, slowdown.delayNanos(300 * MS));
    assertEquals(0, slowdown.delayNanos(2_000 * MS), "a second later the rate is 1 again");
    assertEquals(2, slowdown.slowed.get());
    CreateStreamSlowdown off = new CreateStreamSlowdown(new ApiLimits(100, 0, 100));
    for (int i = 0; i < 100; i++) {
      assertEquals(0, off.delayNanos(i));
    }
  }

  @Test
  void outOfRangeLimitsAreRefusedNamingTheFlag() {
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> new ApiLimits(-1, 40, 500).validate())
            .getMessage()
            .startsWith("--tables-api-quota must be 0"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class, () -> new ApiLimits(100, 40, 60_001).validate())
            .getMessage()
            .startsWith("--create-write-stream-slowdown-ms must be 0 to 60000"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    BigQueryEmulatorCommand.settingsOf(
                        List.of("--create-write-stream-threshold=-2")))
            .getMessage()
            .startsWith("--create-write-stream-threshold must be 0"));
  }

  /** Over HTTP: what the quota refuses is answered as BigQuery answers it, and counted. */
  @Test
  void tablesGetAboveItsQuotaIsRefusedAsTheServiceRefusesItAndCounted() throws Exception {
    EmulatorSettings settings =
        BigQueryEmulatorCommand.settingsOf(
            List.of("--tables-api-quota=5", "--port=0", "--rest-port=0"));
    try (BigQueryEmulator server = BigQueryEmulator.start(settings)) {
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      URI table = URI.create(server.restUrl() + "/bigquery/v2/projects/p/datasets/d/tables/t_1");
      int notFound = 0;
      int limited = 0;
      long started = System.nanoTime();
      for (int i = 0; i < 20; i++) {
        HttpResponse<String> r =
            http.send(
                HttpRequest.newBuilder(table).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 404) {
          notFound++;
        } else {
          assertEquals(403, r.statusCode(), r.body());
          assertTrue(r.body().contains("\"reason\":\"rateLimitExceeded\""), r.body());
          assertTrue(r.body().contains("too many api requests per user per method"), r.body());
          limited++;
        }
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      // 5 at once, then 5 a second: never more, however slow this machine is today.
      assertTrue(
          notFound >= 5 && notFound <= 5 + Math.ceil(5 * seconds),
          notFound + " answered in " + seconds + " s");
      assertTrue(limited > 0, "some refused");
      EmulatorStatus.ApiCalls calls = server.status().apiCalls();
      assertEquals(20, calls.tablesGetCalls());
      assertEquals(limited, calls.tablesGetThrottled());
      assertEquals(0, calls.tablesInsertCalls());
      assertEquals(null, calls.tablesInsertFirstMs(), "no tables.insert: no time");
      assertEquals(null, calls.tablesInsertP99Ms());
      assertTrue(
          calls.tablesGetP50Ms() != null && calls.tablesGetP50Ms() <= calls.tablesGetP99Ms(),
          "every answer timed, refusals too: " + calls);
      assertEquals(5, calls.tablesPerSecond());
    }
  }

  /** When tables were made: the first and the last tables.insert, as the report shows them. */
  @Test
  void tablesInsertCallsAreTimedFirstToLast() throws Exception {
    try (BigQueryEmulator server = BigQueryEmulator.start(EmulatorSettings.defaults());
        OfficialClient bq = new OfficialClient(server)) {
      long before = System.currentTimeMillis();
      bq.createTable("first");
      Thread.sleep(50);
      bq.createTable("last");
      long after = System.currentTimeMillis();
      EmulatorStatus.ApiCalls calls = server.status().apiCalls();
      assertEquals(2, calls.tablesInsertCalls());
      assertTrue(
          before <= calls.tablesInsertFirstMs()
              && calls.tablesInsertFirstMs() + 50 <= calls.tablesInsertLastMs()
              && calls.tablesInsertLastMs() <= after,
          calls.toString());
    }
  }
}
