/*
 * Adapted from Apache Beam 2.70.0, BigQueryServicesImpl.WriteStreamServiceImpl (Apache License 2.0).
 */
package org.apache.beam.sdk.io.gcp.bigquery;

import com.google.api.core.ApiFuture;
import com.google.api.gax.core.FixedExecutorProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.InstantiatingGrpcChannelProvider;
import com.google.api.gax.rpc.TransportChannelProvider;
import com.google.cloud.bigquery.storage.v1.AppendRowsRequest;
import com.google.cloud.bigquery.storage.v1.AppendRowsResponse;
import com.google.cloud.bigquery.storage.v1.BigQueryWriteClient;
import com.google.cloud.bigquery.storage.v1.BigQueryWriteSettings;
import com.google.cloud.bigquery.storage.v1.ConnectionWorkerPool;
import com.google.cloud.bigquery.storage.v1.GetWriteStreamRequest;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.cloud.bigquery.storage.v1.ProtoSchema;
import com.google.cloud.bigquery.storage.v1.StreamWriter;
import com.google.cloud.bigquery.storage.v1.TableSchema;
import com.google.cloud.bigquery.storage.v1.WriteStreamView;
import com.google.protobuf.DescriptorProtos;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices.StreamAppendClient;
import org.apache.beam.sdk.options.ExecutorOptions;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Beam's own Storage Write API service (streams, flush, finalize, commit through the official
 * {@link BigQueryWriteClient}), pointed at a plaintext endpoint: the local BigQuery emulator.
 *
 * <p>Beam builds every {@link StreamWriter} with a TLS channel to Google, whatever {@code
 * --bigQueryEndpoint} says, so {@link #getStreamAppendClient} repeats Beam's construction (same
 * executor, in-flight limits, connection pool settings, trace id and pin/close rules) with two
 * differences: the channel is plaintext and carries no credentials, and the stream is looked up
 * before the writer is built (see there). It lives in Beam's package for the package-private
 * constructor that takes the client.
 */
public final class EmulatorWriteStreamService extends BigQueryServicesImpl.WriteStreamServiceImpl {
  private final PipelineOptions options;
  private final TransportChannelProvider channels;

  private EmulatorWriteStreamService(
      BigQueryWriteClient client, TransportChannelProvider channels, PipelineOptions options) {
    super(client, options);
    this.options = options;
    this.channels = channels;
  }

  /** A service for the Storage Write API at {@code hostAndPort} (plaintext gRPC). */
  public static EmulatorWriteStreamService create(String hostAndPort, BigQueryOptions options) {
    TransportChannelProvider channels = plaintextChannels(hostAndPort);
    try {
      BigQueryWriteClient client =
          BigQueryWriteClient.create(
              BigQueryWriteSettings.newBuilder()
                  .setEndpoint(hostAndPort)
                  .setCredentialsProvider(NoCredentialsProvider.create())
                  .setTransportChannelProvider(channels)
                  .setBackgroundExecutorProvider(
                      FixedExecutorProvider.create(
                          options.as(ExecutorOptions.class).getScheduledExecutorService()))
                  .build());
      return new EmulatorWriteStreamService(client, channels, options);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot create a Storage Write API client for " + hostAndPort, e);
    }
  }

  /** Beam's channel settings (keep-alive, channels per CPU) on a plaintext channel. */
  private static TransportChannelProvider plaintextChannels(String hostAndPort) {
    return InstantiatingGrpcChannelProvider.newBuilder()
        .setEndpoint(hostAndPort)
        .setKeepAliveTimeDuration(Duration.ofMinutes(1))
        .setKeepAliveTimeoutDuration(Duration.ofMinutes(1))
        .setKeepAliveWithoutCalls(true)
        .setChannelsPerCpu(2)
        .setMaxInboundMessageSize(Integer.MAX_VALUE)
        .setChannelConfigurator(ManagedChannelBuilder::usePlaintext)
        .build();
  }

  @Override
  public StreamAppendClient getStreamAppendClient(
      String streamName,
      DescriptorProtos.DescriptorProto descriptor,
      boolean useConnectionPool,
      AppendRowsRequest.MissingValueInterpretation missingValueInterpretation)
      throws Exception {
    // Look the stream up first, as the client's own connection pool does: a missing table answers
    // NOT_FOUND here, inside Beam's CREATE_IF_NEEDED handling, instead of on the first append.
    getClient()
        .getWriteStream(
            GetWriteStreamRequest.newBuilder()
                .setName(streamName)
                .setView(WriteStreamView.BASIC)
                .build());
    BigQueryOptions bqOptions = options.as(BigQueryOptions.class);
    BigQueryIOMetadata metadata = BigQueryIOMetadata.create();
    String traceId =
        String.format(
            "Dataflow:%s:%s:%s",
            metadata.getBeamJobName() == null ? options.getJobName() : metadata.getBeamJobName(),
            metadata.getBeamJobId() == null ? "" : metadata.getBeamJobId(),
            metadata.getBeamWorkerId() == null ? "" : metadata.getBeamWorkerId());
    ConnectionWorkerPool.setOptions(
        ConnectionWorkerPool.Settings.builder()
            .setMinConnectionsPerRegion(bqOptions.getMinConnectionPoolConnections())
            .setMaxConnectionsPerRegion(bqOptions.getMaxConnectionPoolConnections())
            .build());
    StreamWriter streamWriter =
        StreamWriter.newBuilder(streamName, getClient())
            .setExecutorProvider(
                FixedExecutorProvider.create(
                    options.as(ExecutorOptions.class).getScheduledExecutorService()))
            .setWriterSchema(ProtoSchema.newBuilder().setProtoDescriptor(descriptor).build())
            .setChannelProvider(channels)
            .setEnableConnectionPool(useConnectionPool)
            .setMaxInflightRequests(bqOptions.getStorageWriteMaxInflightRequests())
            .setMaxInflightBytes(bqOptions.getStorageWriteMaxInflightBytes())
            .setTraceId(traceId)
            .setDefaultMissingValueInterpretation(missingValueInterpretation)
            .build();
    return new PinnedStreamWriter(streamWriter);
  }

  /** Beam's pin rules: the writer closes once the client is closed and no caller holds a pin. */
  private static final class PinnedStreamWriter implements StreamAppendClient {
    private final StreamWriter streamWriter;
    private int pins;
    private boolean closed;

    PinnedStreamWriter(StreamWriter streamWriter) {
      this.streamWriter = streamWriter;
    }

    @Override
    public void close() {
      boolean closeWriter;
      synchronized (this) {
        if (closed) {
          throw new IllegalStateException("Called close on already closed client");
        }
        closed = true;
        closeWriter = pins == 0;
      }
      if (closeWriter) {
        streamWriter.close();
      }
    }

    @Override
    public void pin() {
      synchronized (this) {
        if (closed) {
          throw new IllegalStateException("pin after close");
        }
        ++pins;
      }
    }

    @Override
    public void unpin() {
      boolean closeWriter;
      synchronized (this) {
        if (pins <= 0) {
          throw new IllegalStateException("Tried to unpin when pins==0");
        }
        --pins;
        closeWriter = pins == 0 && closed;
      }
      if (closeWriter) {
        streamWriter.close();
      }
    }

    @Override
    public ApiFuture<AppendRowsResponse> appendRows(long offset, ProtoRows rows) throws Exception {
      return streamWriter.append(rows, offset);
    }

    @Override
    public TableSchema getUpdatedSchema() {
      return streamWriter.getUpdatedSchema();
    }

    @Override
    public long getInflightWaitSeconds() {
      return streamWriter.getInflightWaitSeconds();
    }
  }
}
