package dev.ingestbench.analysis.source;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.GrpcTransportChannel;
import com.google.api.gax.rpc.FixedTransportChannelProvider;
import com.google.api.gax.rpc.TransportChannelProvider;
import com.google.cloud.monitoring.v3.MetricServiceClient;
import com.google.cloud.monitoring.v3.MetricServiceSettings;
import com.google.monitoring.v3.Aggregation;
import com.google.monitoring.v3.ListTimeSeriesRequest;
import com.google.monitoring.v3.Point;
import com.google.monitoring.v3.ProjectName;
import com.google.monitoring.v3.TimeInterval;
import com.google.monitoring.v3.TimeSeries;
import com.google.protobuf.Duration;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.Timestamps;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Reads the Cloud Monitoring series a diagnosis needs: Dataflow's {@code job/total_vcpu_time} (as
 * vCPU-seconds used per minute), {@code job/current_num_vcpus}, and BigQuery Storage's {@code
 * write/concurrent_connections}. Each is aligned to one point a minute (the maximum in the minute);
 * vCPU time is a running total, so minute-to-minute differences are the vCPU-seconds used.
 */
public final class MonitoringSource implements AutoCloseable {
  private static final Pattern JOB_NAME = Pattern.compile("[a-z]([-a-z0-9]{0,1022}[a-z0-9])?");
  private static final Duration MINUTE = Duration.newBuilder().setSeconds(60).build();

  private final MetricServiceClient client;
  private final String project;
  private final AutoCloseable transport;

  MonitoringSource(MetricServiceClient client, String project) {
    this(client, project, () -> {});
  }

  private MonitoringSource(MetricServiceClient client, String project, AutoCloseable transport) {
    this.client = client;
    this.project = project;
    this.transport = transport;
  }

  /** With application-default credentials. */
  public static MonitoringSource connect(String project) throws IOException {
    return new MonitoringSource(MetricServiceClient.create(), project);
  }

  /** Through a given transport, e.g. a loopback server replaying recorded responses. */
  public static MonitoringSource connect(
      String project, TransportChannelProvider channel, CredentialsProvider credentials)
      throws IOException {
    return new MonitoringSource(
        MetricServiceClient.create(
            MetricServiceSettings.newBuilder()
                .setTransportChannelProvider(channel)
                .setCredentialsProvider(credentials)
                .build()),
        project);
  }

  /**
   * Over plaintext gRPC to {@code hostPort} without credentials (a loopback stand-in); closing
   * closes the channel.
   */
  public static MonitoringSource plaintext(String project, String hostPort) throws IOException {
    ManagedChannel channel = ManagedChannelBuilder.forTarget(hostPort).usePlaintext().build();
    return new MonitoringSource(
        MetricServiceClient.create(
            MetricServiceSettings.newBuilder()
                .setTransportChannelProvider(
                    FixedTransportChannelProvider.create(GrpcTransportChannel.create(channel)))
                .setCredentialsProvider(NoCredentialsProvider.create())
                .build()),
        project,
        channel::shutdownNow);
  }

  /** vCPU-seconds the job used in each minute of [from, to). */
  public Map<Instant, Double> vcpuSecondsPerMinute(String jobName, Instant from, Instant to) {
    Map<Instant, Double> totals =
        perMinuteMax(
            jobFilter("dataflow.googleapis.com/job/total_vcpu_time", jobName),
            from,
            to,
            Aggregation.Reducer.REDUCE_SUM);
    Map<Instant, Double> deltas = new TreeMap<>();
    Instant previousMinute = null;
    double previous = 0;
    for (Map.Entry<Instant, Double> e : totals.entrySet()) {
      if (previousMinute != null && e.getKey().equals(previousMinute.plusSeconds(60))) {
        deltas.put(e.getKey(), Math.max(0, e.getValue() - previous));
      }
      previousMinute = e.getKey();
      previous = e.getValue();
    }
    return deltas;
  }

  /** The most vCPUs the job had at once in [from, to), or 0 when Monitoring has no points. */
  public int maxVcpus(String jobName, Instant from, Instant to) {
    return (int)
        Math.round(
            perMinuteMax(
                    jobFilter("dataflow.googleapis.com/job/current_num_vcpus", jobName),
                    from,
                    to,
                    Aggregation.Reducer.REDUCE_SUM)
                .values()
                .stream()
                .mapToDouble(Double::doubleValue)
                .max()
                .orElse(0));
  }

  /**
   * The most concurrent Storage Write API connections of the project in [from, to), summed over
   * locations.
   */
  public int peakConnections(Instant from, Instant to) {
    return (int)
        Math.round(
            perMinuteMax(
                    "metric.type=\"bigquerystorage.googleapis.com/write/concurrent_connections\"",
                    from,
                    to,
                    Aggregation.Reducer.REDUCE_SUM)
                .values()
                .stream()
                .mapToDouble(Double::doubleValue)
                .max()
                .orElse(0));
  }

  private static String jobFilter(String metric, String jobName) {
    if (jobName == null || !JOB_NAME.matcher(jobName).matches()) {
      throw new IllegalArgumentException(
          "--job " + jobName + " is not a Dataflow job name (lower-case letters, digits, '-')");
    }
    return "metric.type=\""
        + metric
        + "\" AND resource.type=\"dataflow_job\" AND resource.labels.job_name=\""
        + jobName
        + "\"";
  }

  private Map<Instant, Double> perMinuteMax(
      String filter, Instant from, Instant to, Aggregation.Reducer reducer) {
    ListTimeSeriesRequest request =
        ListTimeSeriesRequest.newBuilder()
            .setName(ProjectName.of(project).toString())
            .setFilter(filter)
            .setInterval(TimeInterval.newBuilder().setStartTime(ts(from)).setEndTime(ts(to)))
            .setAggregation(
                Aggregation.newBuilder()
                    .setAlignmentPeriod(MINUTE)
                    .setPerSeriesAligner(Aggregation.Aligner.ALIGN_MAX)
                    .setCrossSeriesReducer(reducer))
            .setView(ListTimeSeriesRequest.TimeSeriesView.FULL)
            .build();
    Map<Instant, Double> values = new TreeMap<>();
    for (TimeSeries series : client.listTimeSeries(request).iterateAll()) {
      for (Point point : series.getPointsList()) {
        Timestamp end = point.getInterval().getEndTime();
        // A point aligned to a minute ends at the minute's end; key it by the minute it describes.
        Instant minute = Instant.ofEpochSecond(end.getSeconds()).minusSeconds(60);
        double value =
            point.getValue().hasDoubleValue()
                ? point.getValue().getDoubleValue()
                : point.getValue().getInt64Value();
        values.merge(minute, value, Double::sum);
      }
    }
    return values;
  }

  private static Timestamp ts(Instant instant) {
    return Timestamps.fromMillis(instant.toEpochMilli());
  }

  @Override
  public void close() {
    client.close();
    try {
      transport.close();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
