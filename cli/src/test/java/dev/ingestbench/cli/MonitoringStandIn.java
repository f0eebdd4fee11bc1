package dev.ingestbench.cli;

import com.google.monitoring.v3.ListTimeSeriesRequest;
import com.google.monitoring.v3.ListTimeSeriesResponse;
import com.google.monitoring.v3.Point;
import com.google.monitoring.v3.TimeInterval;
import com.google.monitoring.v3.TimeSeries;
import com.google.monitoring.v3.TypedValue;
import com.google.protobuf.util.Timestamps;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerServiceDefinition;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCalls;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A loopback stand-in of Cloud Monitoring's ListTimeSeries over gRPC: every request is recorded;
 * concurrent connections answer 7 at the end of the queried interval, a job's vCPU time a running
 * total growing 600 vCPU-seconds a minute over the interval.
 */
final class MonitoringStandIn implements AutoCloseable {
  final List<ListTimeSeriesRequest> requests = new ArrayList<>();
  private final Server server;

  MonitoringStandIn() throws IOException {
    MethodDescriptor<ListTimeSeriesRequest, ListTimeSeriesResponse> list =
        MethodDescriptor.<ListTimeSeriesRequest, ListTimeSeriesResponse>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName("google.monitoring.v3.MetricService/ListTimeSeries")
            .setRequestMarshaller(ProtoUtils.marshaller(ListTimeSeriesRequest.getDefaultInstance()))
            .setResponseMarshaller(
                ProtoUtils.marshaller(ListTimeSeriesResponse.getDefaultInstance()))
            .build();
    ServerServiceDefinition service =
        ServerServiceDefinition.builder("google.monitoring.v3.MetricService")
            .addMethod(
                list,
                ServerCalls.asyncUnaryCall(
                    (request, reply) -> {
                      synchronized (requests) {
                        requests.add(request);
                      }
                      reply.onNext(answer(request));
                      reply.onCompleted();
                    }))
            .build();
    server = ServerBuilder.forPort(0).addService(service).build().start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getPort();
  }

  private static ListTimeSeriesResponse answer(ListTimeSeriesRequest request) {
    long start = request.getInterval().getStartTime().getSeconds() / 60 * 60;
    long end = request.getInterval().getEndTime().getSeconds();
    TimeSeries.Builder series = TimeSeries.newBuilder();
    if (request.getFilter().contains("concurrent_connections")) {
      series.addPoints(point(end / 60 * 60 + 60, 7));
    } else if (request.getFilter().contains("total_vcpu_time")) {
      for (long m = start + 60, k = 1; m <= end + 60; m += 60, k++) {
        series.addPoints(point(m, 600.0 * k));
      }
    }
    return ListTimeSeriesResponse.newBuilder().addTimeSeries(series).build();
  }

  private static Point point(long endSecond, double value) {
    return Point.newBuilder()
        .setInterval(TimeInterval.newBuilder().setEndTime(Timestamps.fromSeconds(endSecond)))
        .setValue(TypedValue.newBuilder().setDoubleValue(value))
        .build();
  }

  @Override
  public void close() {
    server.shutdownNow();
  }
}
