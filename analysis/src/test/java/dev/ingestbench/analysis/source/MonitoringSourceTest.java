package dev.ingestbench.analysis.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.GrpcTransportChannel;
import com.google.api.gax.rpc.FixedTransportChannelProvider;
import com.google.monitoring.v3.ListTimeSeriesRequest;
import com.google.monitoring.v3.ListTimeSeriesResponse;
import com.google.protobuf.util.JsonFormat;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCalls;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real Monitoring client against recorded ListTimeSeries responses served over loopback gRPC.
 */
class MonitoringSourceTest {
  private static final Path RECORDED = Path.of("src", "test", "resources", "recorded");
  private static final Instant FROM = Instant.parse("2026-02-12T10:50:00Z");
  private static final Instant TO = Instant.parse("2026-02-12T11:00:00Z");
  private final List<ListTimeSeriesRequest> requests = new ArrayList<>();
  private Server server;
  private ManagedChannel channel;
  private MonitoringSource source;

  @BeforeEach
  void replayRecordedResponses() throws Exception {
    MethodDescriptor<ListTimeSeriesRequest, ListTimeSeriesResponse> listTimeSeries =
        MethodDescriptor.<ListTimeSeriesRequest, ListTimeSeriesResponse>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName("google.monitoring.v3.MetricService/ListTimeSeries")
            .setRequestMarshaller(ProtoUtils.marshaller(ListTimeSeriesRequest.getDefaultInstance()))
            .setResponseMarshaller(
                ProtoUtils.marshaller(ListTimeSeriesResponse.getDefaultInstance()))
            .build();
    Map<String, String> byMetric =
        Map.of(
            "job/total_vcpu_time", "monitoring_total_vcpu_time.json",
            "job/current_num_vcpus", "monitoring_current_num_vcpus.json",
            "write/concurrent_connections", "monitoring_concurrent_connections.json");
    ServerServiceDefinition service =
        ServerServiceDefinition.builder("google.monitoring.v3.MetricService")
            .addMethod(
                listTimeSeries,
                ServerCalls.asyncUnaryCall(
                    (request, reply) -> {
                      requests.add(request);
                      try {
                        String file =
                            byMetric.entrySet().stream()
                                .filter(e -> request.getFilter().contains(e.getKey()))
                                .map(Map.Entry::getValue)
                                .findFirst()
                                .orElseThrow();
                        ListTimeSeriesResponse.Builder response =
                            ListTimeSeriesResponse.newBuilder();
                        JsonFormat.parser()
                            .merge(Files.readString(RECORDED.resolve(file)), response);
                        reply.onNext(response.build());
                        reply.onCompleted();
                      } catch (Exception e) {
                        reply.onError(
                            Status.NOT_FOUND
                                .withDescription("not recorded: " + request.getFilter())
                                .asRuntimeException());
                      }
                    }))
            .build();
    server = ServerBuilder.forPort(0).addService(service).build().start();
    channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
    source =
        MonitoringSource.connect(
            "ingestbench-test",
            FixedTransportChannelProvider.create(GrpcTransportChannel.create(channel)),
            NoCredentialsProvider.create());
  }

  @AfterEach
  void stop() {
    source.close();
    channel.shutdownNow();
    server.shutdownNow();
  }

  @Test
  void vcpuTimeBecomesVcpuSecondsPerMinute() {
    Map<Instant, Double> perMinute = source.vcpuSecondsPerMinute("ingestbench-a1", FROM, TO);
    assertEquals(
        Map.of(
            Instant.parse("2026-02-12T10:52:00Z"), 480.0,
            Instant.parse("2026-02-12T10:53:00Z"), 640.0,
            Instant.parse("2026-02-12T10:54:00Z"), 720.0),
        perMinute);
    ListTimeSeriesRequest request = requests.get(0);
    assertEquals("projects/ingestbench-test", request.getName());
    assertTrue(
        request.getFilter().contains("resource.labels.job_name=\"ingestbench-a1\""),
        request.getFilter());
    assertEquals(60, request.getAggregation().getAlignmentPeriod().getSeconds());
  }

  @Test
  void vcpusAndConnectionsAreTheirPeaks() {
    assertEquals(12, source.maxVcpus("ingestbench-a1", FROM, TO));
    assertEquals(57, source.peakConnections(FROM, TO), "two series at 10:54 summed: 30 + 27");
  }

  @Test
  void aJobNameThatCouldBreakTheFilterIsRefused() {
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> source.vcpuSecondsPerMinute("a1\" OR metric.type=\"x", FROM, TO))
            .getMessage()
            .startsWith("--job"));
  }
}
