package dev.ingestbench.publisher;

import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.SendSchedule;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Tells the local BigQuery when a paced publisher means to send a range of messages ({@code PUT
 * /ingestbench/v1/schedule}), so it measures every row against its intended send time.
 */
public final class ScheduleClient {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private ScheduleClient() {}

  /**
   * @param restUrl the local BigQuery's REST root, {@code http://127.0.0.1:PORT}
   */
  public static void send(String restUrl, SendSchedule step) throws IOException {
    URI uri = URI.create(restUrl.replaceAll("/+$", "") + SendSchedule.PATH);
    try {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(uri)
                  .timeout(Duration.ofSeconds(10))
                  .PUT(HttpRequest.BodyPublishers.ofString(RunJson.toJsonLine(step)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 204) {
        throw new IOException(
            "the BigQuery emulator at "
                + uri
                + " answered "
                + response.statusCode()
                + ": "
                + response.body());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while telling " + uri + " the schedule", e);
    }
  }
}
