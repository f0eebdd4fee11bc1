package dev.ingestbench.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.SendSchedule;
import dev.ingestbench.contracts.WindowLatency;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * Latency against the time a paced publisher meant each message to be sent: the schedule it gives
 * step by step, each message counted once, by the window of its intended send time.
 */
class WindowLatencyTest {
  private static final long T0_MS = 1_700_000_000_000L;

  @Test
  void rowsAreMeasuredAgainstTheirIntendedTimeOnceEachAndOnlyWhereAStepCoversThem() {
    IntendedTimes schedule = new IntendedTimes();
    // 10 msg/s from index 10 at T0; 100 msg/s from index 20 at T0 + 2 s
    schedule.add(new SendSchedule(10, T0_MS * 1000, 10));
    schedule.add(new SendSchedule(20, (T0_MS + 2_000) * 1000, 100));
    assertEquals(-1, schedule.intendedMicros(9));
    assertEquals((T0_MS + 500) * 1000, schedule.intendedMicros(15));
    assertEquals((T0_MS + 2_010) * 1000, schedule.intendedMicros(21));

    WrittenRows written = new WrittenRows();
    long[] publish = {(T0_MS + 900) * 1000, (T0_MS + 900) * 1000, (T0_MS + 900) * 1000};
    // index 5: before the schedule; index 15: intended T0 + 500 ms, visible at T0 + 3,500 ms;
    // index 15 again: a duplicate, not a second sample
    written.recordWritten(
        new long[] {5, 15, 15}, publish, null, null, null, 3, T0_MS + 3_500, schedule);
    WindowLatency first = written.windowLatency(T0_MS, T0_MS + 1_000);
    assertEquals(1, first.intended().samples());
    assertEquals(3_000, first.intended().p99Ms(), 30); // HDR, 2 significant digits
    assertEquals(2_600, first.published().maxMs(), 30); // from Pub/Sub's publish time
    assertNull(written.windowLatency(T0_MS + 1_000, T0_MS + 2_000).intended());

    // 100 messages meant for the second after T0 + 2 s, visible 250 ms after it
    long[] indexes = new long[100];
    long[] times = new long[100];
    for (int i = 0; i < 100; i++) {
      indexes[i] = 20 + i;
      times[i] = -1;
    }
    written.recordWritten(indexes, times, null, null, null, 100, T0_MS + 3_250, schedule);
    WindowLatency second = written.windowLatency(T0_MS + 2_000, T0_MS + 3_000);
    assertEquals(100, second.intended().samples());
    assertEquals(1_250, second.intended().maxMs(), 15);
    assertEquals(755, second.intended().p50Ms(), 15); // the middle of 260..1,250 ms
    assertNull(second.published()); // no publish time on these rows
    assertEquals(101, written.windowLatency(T0_MS, T0_MS + 3_000).intended().samples());
  }

  @Test
  void theServerTakesTheScheduleAndAnswersAWindowOverRest() throws Exception {
    try (BigQueryEmulator server = BigQueryEmulator.start(EmulatorSettings.defaults())) {
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> put =
          http.send(
              HttpRequest.newBuilder(URI.create(server.restUrl() + SendSchedule.PATH))
                  .PUT(
                      HttpRequest.BodyPublishers.ofString(
                          RunJson.toJson(new SendSchedule(0, T0_MS * 1000, 1_000))))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(204, put.statusCode(), put.body());
      HttpResponse<String> window =
          http.send(
              HttpRequest.newBuilder(
                      URI.create(
                          server.restUrl() + WindowLatency.path("job-1", T0_MS, T0_MS + 1_000)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, window.statusCode(), window.body());
      WindowLatency none = RunJson.fromJson(window.body(), WindowLatency.class);
      assertNull(none.intended());
      assertEquals(T0_MS, none.fromEpochMs());
      HttpResponse<String> bad =
          http.send(
              HttpRequest.newBuilder(
                      URI.create(server.restUrl() + "/ingestbench/v1/jobs/job-1/window-latency"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(400, bad.statusCode());
      assertTrue(bad.body().contains("from_ms"), bad.body());
      HttpResponse<String> badStep =
          http.send(
              HttpRequest.newBuilder(URI.create(server.restUrl() + SendSchedule.PATH))
                  .PUT(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"first_index\":0,\"messages_per_second\":0}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(400, badStep.statusCode(), badStep.body());
    }
  }
}
