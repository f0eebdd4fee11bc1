package dev.ingestbench.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The emulator's memory is bounded whatever a client sends: a gzip body is read only up to a limit,
 * and what it refuses is answered.
 */
class RestBodyLimitTest {
  private static byte[] gzip(byte[] data, int times) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
      for (int i = 0; i < times; i++) {
        zip.write(data);
      }
    }
    return out.toByteArray();
  }

  @Test
  void aSmallGzipBodyThatInflatesBeyondTheLimitIsRefusedAndTheServerGoesOn() throws Exception {
    try (BigQueryEmulator server = BigQueryEmulator.start(EmulatorSettings.defaults())) {
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      // 64 MiB of spaces before a dataset definition: ~64 KB on the wire.
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
        byte[] spaces = " ".repeat(1 << 20).getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 64; i++) {
          zip.write(spaces);
        }
        zip.write("{\"datasetReference\":{\"datasetId\":\"d\"}}".getBytes(StandardCharsets.UTF_8));
      }
      byte[] bomb = out.toByteArray();
      assertTrue(bomb.length < 200_000, bomb.length + " bytes on the wire");
      URI datasets = URI.create(server.restUrl() + "/bigquery/v2/projects/p/datasets");
      HttpResponse<String> refused =
          http.send(
              HttpRequest.newBuilder(datasets)
                  .header("Content-Encoding", "gzip")
                  .POST(HttpRequest.BodyPublishers.ofByteArray(bomb))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(413, refused.statusCode(), refused.body());
      assertTrue(
          refused.body().contains("larger than 10485760 bytes (as sent or after decompression)"),
          refused.body());

      byte[] small =
          gzip("{\"datasetReference\":{\"datasetId\":\"d\"}}".getBytes(StandardCharsets.UTF_8), 1);
      HttpResponse<String> created =
          http.send(
              HttpRequest.newBuilder(datasets)
                  .header("Content-Encoding", "gzip")
                  .POST(HttpRequest.BodyPublishers.ofByteArray(small))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, created.statusCode(), created.body());

      // A body that is not JSON is answered too (the answer was lost before: the exchange closed
      // first).
      HttpResponse<String> garbled =
          http.send(
              HttpRequest.newBuilder(datasets)
                  .POST(HttpRequest.BodyPublishers.ofString("{not json"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(400, garbled.statusCode(), garbled.body());
      assertTrue(garbled.body().contains("Cannot read the request"), garbled.body());
    }
  }
}
