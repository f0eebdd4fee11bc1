package dev.ingestbench.flink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * What the harness asks a Flink cluster's REST API: its overview (release, TaskManagers, slots).
 */
public final class FlinkRest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

  private FlinkRest() {}

  /** {@code GET /overview}. */
  public record Overview(
      String flinkVersion, int taskManagers, int slotsTotal, int slotsAvailable, int jobsRunning) {}

  /**
   * The cluster's overview.
   *
   * @param master {@code HOST:PORT} of its REST endpoint
   * @throws IOException naming the address when it does not answer within a few seconds
   */
  public static Overview overview(String master) throws IOException, InterruptedException {
    JsonNode o = get(master, "/overview");
    return new Overview(
        o.path("flink-version").asText("?"),
        o.path("taskmanagers").asInt(),
        o.path("slots-total").asInt(),
        o.path("slots-available").asInt(),
        o.path("jobs-running").asInt());
  }

  static JsonNode get(String master, String path) throws IOException, InterruptedException {
    URI uri = URI.create("http://" + master + path);
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).GET().build();
    HttpResponse<String> response;
    try {
      response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IOException("no Flink REST endpoint answers at " + master + " (" + e + ")", e);
    }
    if (response.statusCode() != 200) {
      throw new IOException(
          uri + " answered HTTP " + response.statusCode() + ": " + response.body());
    }
    return JSON.readTree(response.body());
  }
}
