package dev.ingestbench.dataflow;

import com.google.api.client.http.HttpRequestInitializer;
import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.api.client.json.gson.GsonFactory;
import com.google.api.services.bigquery.Bigquery;
import com.google.api.services.dataflow.Dataflow;
import com.google.auth.http.HttpCredentialsAdapter;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.bigquery.BigQueryOptions;
import dev.ingestbench.analysis.source.BigQueryTimelineSource;
import dev.ingestbench.analysis.source.MonitoringSource;
import dev.ingestbench.contracts.StopMode;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where a {@code --target dataflow} run goes: project, region, the bucket holding the Flex Template
 * specs (as {@code scripts/flex-template.sh build} writes them) and temp files, the dataset and
 * table, how jobs are stopped, how often they are polled, and the API endpoints. An endpoint given
 * as {@code http://} (a loopback stand-in, an emulator) is used without credentials; the defaults
 * are Google's, with Application Default Credentials, which go to Google API hosts ({@code
 * *.googleapis.com}) only, unless {@code credentialsToAnyHost} ({@code
 * --send-credentials-to-any-endpoint}) says otherwise in so many words.
 */
public record GcpSettings(
    String project,
    String region,
    String bucket,
    String dataset,
    String table,
    StopMode stopWith,
    Duration pollInterval,
    String dataflowEndpoint,
    String bigqueryEndpoint,
    String monitoringEndpoint,
    String pubsubEmulatorHost,
    boolean credentialsToAnyHost) {

  public static final String DATAFLOW_ENDPOINT = "https://dataflow.googleapis.com/";
  public static final String BIGQUERY_ENDPOINT = "https://bigquery.googleapis.com/";
  public static final String MONITORING_ENDPOINT = "monitoring.googleapis.com:443";
  private static final Pattern PROJECT = Pattern.compile("[a-z][-a-z0-9]{4,28}[a-z0-9]");
  private static final Pattern REGION = Pattern.compile("[a-z]+-[a-z]+[0-9]{1,2}");
  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][-a-z0-9_.]{1,220}[a-z0-9]");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_]{1,1024}");

  public GcpSettings {
    require(
        stopWith != StopMode.SAVEPOINT,
        "--stop-with savepoint is Flink's stop-with-savepoint and Dataflow has none: use drain or"
            + " cancel (or --target flink)");
    require(
        project != null,
        "--target dataflow needs --project PROJECT (there is no default project, on purpose)");
    require(
        PROJECT.matcher(project).matches(),
        "--project " + project + " is not a Google Cloud project id");
    require(
        region != null,
        "--target dataflow needs --region (e.g. us-central1): jobs, dataset and timeline live there");
    require(
        REGION.matcher(region).matches(),
        "--region " + region + " is not a Dataflow region (e.g. asia-southeast1)");
    require(
        bucket != null,
        "--target dataflow needs --bucket BUCKET: the Flex Template specs are read from"
            + " gs://BUCKET/templates/ (scripts/flex-template.sh build puts them there) and temp files go to gs://BUCKET/tmp");
    require(
        BUCKET.matcher(bucket).matches(),
        "--bucket "
            + bucket
            + " is not a bucket name: 3-222 lower-case letters, digits, dashes, underscores and dots, the name only (no gs://)");
    require(
        NAME.matcher(dataset).matches(),
        "--dataset " + dataset + " is not a BigQuery dataset name");
    require(NAME.matcher(table).matches(), "--table " + table + " is not a BigQuery table name");
    require(pollInterval.getSeconds() >= 1, "--poll-interval must be at least 1s");
    for (String[] endpoint :
        new String[][] {
          {"--dataflow-endpoint", dataflowEndpoint},
          {"--bigquery-endpoint", bigqueryEndpoint},
          {"--monitoring-endpoint", monitoringEndpoint}
        }) {
      String host = host(endpoint[1]);
      require(
          plaintext(endpoint[1])
              || credentialsToAnyHost
              || host.equals("googleapis.com")
              || host.endsWith(".googleapis.com"),
          endpoint[0]
              + " "
              + endpoint[1]
              + " would receive your Google"
              + " credentials, and "
              + host
              + " is not a Google API host (*.googleapis.com): give a googleapis.com"
              + " endpoint, http:// for a stand-in without credentials, or --send-credentials-to-any-endpoint if you"
              + " mean to send them there (a proxy or private endpoint you run)");
    }
  }

  /**
   * The host of an API root URL ({@code https://host/...}) or a gRPC target ({@code host:port}).
   */
  static String host(String endpoint) {
    String rest =
        endpoint.contains("://") ? endpoint.substring(endpoint.indexOf("://") + 3) : endpoint;
    int end = rest.length();
    for (char c : new char[] {'/', ':', '?', '#'}) {
      int at = rest.indexOf(c);
      if (at >= 0 && at < end) {
        end = at;
      }
    }
    int userInfo = rest.lastIndexOf('@', end);
    return rest.substring(userInfo + 1, end).toLowerCase(Locale.ROOT);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  /** The Flex Template spec of {@code module} (consumer or publisher). */
  public String template(String module) {
    return "gs://" + bucket + "/templates/ingestbench-" + module + ".json";
  }

  public String tempLocation() {
    return "gs://" + bucket + "/tmp";
  }

  public String stagingLocation() {
    return "gs://" + bucket + "/staging";
  }

  public String topicPath(String topic) {
    return "projects/" + project + "/topics/" + topic;
  }

  public String subscriptionPath(String subscription) {
    return "projects/" + project + "/subscriptions/" + subscription;
  }

  private static boolean plaintext(String endpoint) {
    return endpoint.startsWith("http://");
  }

  private HttpRequestInitializer credentials(String endpoint) throws IOException {
    if (plaintext(endpoint)) {
      return request -> {};
    }
    try {
      return new HttpCredentialsAdapter(
          GoogleCredentials.getApplicationDefault()
              .createScoped(List.of("https://www.googleapis.com/auth/cloud-platform")));
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "--target dataflow needs Google Application Default Credentials, and none were"
              + " found: run `gcloud auth application-default login` (or set GOOGLE_APPLICATION_CREDENTIALS)",
          e);
    }
  }

  /**
   * Fails now, before a run directory is written, when Google's endpoints are used without
   * credentials.
   */
  public void requireCredentials() throws IOException {
    if (!plaintext(dataflowEndpoint)
        || !plaintext(bigqueryEndpoint)
        || !plaintext(monitoringEndpoint)) {
      credentials(DATAFLOW_ENDPOINT);
    }
  }

  /** The Dataflow API client (jobs, Flex Template launches). */
  public Dataflow dataflow() throws IOException {
    return new Dataflow.Builder(
            new NetHttpTransport(), GsonFactory.getDefaultInstance(), credentials(dataflowEndpoint))
        .setRootUrl(dataflowEndpoint)
        .setApplicationName("ingestbench")
        .build();
  }

  /** The BigQuery API client for datasets and tables (the schemas are Beam's model classes). */
  public Bigquery bigquery() throws IOException {
    return new Bigquery.Builder(
            new NetHttpTransport(), GsonFactory.getDefaultInstance(), credentials(bigqueryEndpoint))
        .setRootUrl(bigqueryEndpoint)
        .setApplicationName("ingestbench")
        .build();
  }

  /** The WRITE_API_TIMELINE reader, billing its queries to {@code project}. */
  public BigQueryTimelineSource timeline() {
    if (!plaintext(bigqueryEndpoint)) {
      return BigQueryTimelineSource.connect(project);
    }
    return new BigQueryTimelineSource(
        BigQueryOptions.newBuilder()
            .setProjectId(project)
            .setHost(bigqueryEndpoint.replaceAll("/+$", ""))
            .setCredentials(NoCredentials.getInstance())
            .build()
            .getService());
  }

  /**
   * The Cloud Monitoring reader; a {@code http://HOST:PORT} endpoint is plaintext gRPC without
   * credentials.
   */
  public MonitoringSource monitoring() throws IOException {
    if (!plaintext(monitoringEndpoint)) {
      return MonitoringSource.connect(project);
    }
    return MonitoringSource.plaintext(
        project, monitoringEndpoint.substring("http://".length()).replaceAll("/+$", ""));
  }
}
