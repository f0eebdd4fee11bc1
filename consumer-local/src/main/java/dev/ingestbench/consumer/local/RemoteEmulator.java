package dev.ingestbench.consumer.local;

import dev.ingestbench.contracts.AccountedIndexes;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.JobRouting;
import dev.ingestbench.contracts.RunJson;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code --sink=emulator}: a BigQuery emulator another process runs (a round's, or {@code
 * ingestbench bigquery-emulator}), read through its status endpoint. It writes its own files when
 * it stops.
 */
public final class RemoteEmulator implements EmulatorView {
  private final String storageWriteEndpoint;
  private final URI status;
  private final URI accounted;
  private final URI routing;
  private final String job;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  public RemoteEmulator(String storageWriteEndpoint, String restUrl, String job) {
    this.storageWriteEndpoint = storageWriteEndpoint;
    this.status = URI.create(restUrl.replaceAll("/+$", "") + EmulatorStatus.PATH);
    this.job = job;
    this.accounted = URI.create(restUrl.replaceAll("/+$", "") + AccountedIndexes.path(job));
    this.routing = URI.create(restUrl.replaceAll("/+$", "") + JobRouting.path(job));
  }

  @Override
  public String storageWriteEndpoint() {
    return storageWriteEndpoint;
  }

  @Override
  public EmulatorStatus.Job job() throws IOException {
    return RunJson.fromJson(get(status), EmulatorStatus.class).job(job);
  }

  @Override
  public AccountedIndexes accounted() throws IOException {
    return RunJson.fromJson(get(accounted), AccountedIndexes.class);
  }

  @Override
  public void declareRouting(JobRouting declared) throws IOException {
    send(
        HttpRequest.newBuilder(routing)
            .timeout(Duration.ofSeconds(10))
            .PUT(HttpRequest.BodyPublishers.ofString(RunJson.toJson(declared)))
            .build(),
        204);
  }

  private String get(URI uri) throws IOException {
    return send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(), 200);
  }

  private String send(HttpRequest request, int expected) throws IOException {
    URI uri = request.uri();
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != expected) {
        throw new IOException(
            "the BigQuery emulator at " + uri + " answered " + response.statusCode());
      }
      return response.body();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while asking " + uri, e);
    } catch (ConnectException e) {
      throw new IOException(
          "no BigQuery emulator answers at "
              + uri
              + ": start one with `ingestbench bigquery-emulator`, or check --bigQueryEndpoint",
          e);
    }
  }

  @Override
  public void writeFiles(Path dir) {}

  @Override
  public void close() {}
}
