package dev.ingestbench.harness.process;

import dev.ingestbench.contracts.AccountedIndexes;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.SendSchedule;
import dev.ingestbench.contracts.WindowLatency;
import dev.ingestbench.publisher.ScheduleClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;

/**
 * The local BigQuery's own REST endpoints, as a run reads them while it goes on: its status (every
 * job's verification, connections, throttling), a job's accounted-for indexes, a paced publisher's
 * schedule and the latency it lets the server measure.
 */
public final class BigQueryEmulatorRest {
  private final String root;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /**
   * @param restUrl the server's REST root, {@code http://127.0.0.1:PORT}
   */
  public BigQueryEmulatorRest(String restUrl) {
    this.root = restUrl.replaceAll("/+$", "");
  }

  /** The whole status, read now. */
  public EmulatorStatus status() throws IOException {
    return get(EmulatorStatus.PATH, EmulatorStatus.class);
  }

  /** The event indexes {@code job} has written or dead-lettered, read now. */
  public BitSet accounted(String job) throws IOException {
    return get(AccountedIndexes.path(job), AccountedIndexes.class).indexes();
  }

  /** {@code job}'s latency of the messages meant to be sent in [{@code fromMs}, {@code toMs}). */
  public WindowLatency windowLatency(String job, long fromMs, long toMs) throws IOException {
    return get(WindowLatency.path(job, fromMs, toMs), WindowLatency.class);
  }

  /** Tells the server when the messages from {@code step}'s first index on are meant to be sent. */
  public void schedule(SendSchedule step) throws IOException {
    ScheduleClient.send(root, step);
  }

  /** Every step of the schedule the server was told, by first index. */
  public List<SendSchedule> schedule() throws IOException {
    return List.of(get(SendSchedule.PATH, SendSchedule[].class));
  }

  private <T> T get(String path, Class<T> type) throws IOException {
    return RunJson.fromJson(
        send(
            HttpRequest.newBuilder(URI.create(root + path)).timeout(Duration.ofSeconds(10)).build(),
            200),
        type);
  }

  private String send(HttpRequest request, int expected) throws IOException {
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != expected) {
        throw new IOException(
            "the BigQuery emulator at "
                + request.uri()
                + " answered "
                + response.statusCode()
                + ": "
                + response.body());
      }
      return response.body();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while asking " + request.uri(), e);
    }
  }
}
