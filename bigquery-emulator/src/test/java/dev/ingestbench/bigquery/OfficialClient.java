package dev.ingestbench.bigquery;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.InstantiatingGrpcChannelProvider;
import com.google.cloud.bigquery.storage.v1.BigQueryWriteClient;
import com.google.cloud.bigquery.storage.v1.BigQueryWriteSettings;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.cloud.bigquery.storage.v1.ProtoSchema;
import com.google.cloud.bigquery.storage.v1.StreamWriter;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * The official Java client (google-cloud-bigquerystorage) on a plaintext channel to the emulator,
 * plus table creation over its REST API: what any user's client does.
 */
final class OfficialClient implements AutoCloseable {
  static final String PROJECT = "my-project";
  static final String DATASET = "demo";

  final String restUrl;
  final InstantiatingGrpcChannelProvider channels;
  final BigQueryWriteClient client;

  OfficialClient(BigQueryEmulator server) throws IOException {
    this(server.grpcAddress(), server.restUrl());
  }

  OfficialClient(String grpcAddress, String restUrl) throws IOException {
    this.restUrl = restUrl;
    this.channels =
        InstantiatingGrpcChannelProvider.newBuilder()
            .setEndpoint(grpcAddress)
            .setChannelConfigurator(ManagedChannelBuilder::usePlaintext)
            .build();
    this.client =
        BigQueryWriteClient.create(
            BigQueryWriteSettings.newBuilder()
                .setEndpoint(grpcAddress)
                .setCredentialsProvider(NoCredentialsProvider.create())
                .setTransportChannelProvider(channels)
                .build());
  }

  /** Creates {@code table} with event_index, publish_time and a payload column, over REST. */
  String createTable(String table, String... extraColumns) throws Exception {
    StringBuilder fields =
        new StringBuilder(
            "{\"name\":\"event_index\",\"type\":\"INTEGER\"},{\"name\":\"publish_time\",\"type\":\"TIMESTAMP\"},"
                + "{\"name\":\"payload\",\"type\":\"STRING\"}");
    for (String column : extraColumns) {
      fields.append(",{\"name\":\"").append(column).append("\",\"type\":\"STRING\"}");
    }
    return createTable(restUrl, PROJECT, DATASET, table, "[" + fields + "]");
  }

  /**
   * Creates {@code project.dataset.table} with {@code fields} (the REST API's JSON array of
   * columns) over the emulator's REST API at {@code restUrl}; returns the table's resource name.
   */
  static String createTable(
      String restUrl, String project, String dataset, String table, String fields)
      throws Exception {
    String body =
        "{\"tableReference\":{\"projectId\":\""
            + project
            + "\",\"datasetId\":\""
            + dataset
            + "\",\"tableId\":\""
            + table
            + "\"},\"schema\":{\"fields\":"
            + fields
            + "}}";
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            restUrl
                                + "/bigquery/v2/projects/"
                                + project
                                + "/datasets/"
                                + dataset
                                + "/tables"))
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          "creating " + table + ": " + response.statusCode() + " " + response.body());
    }
    return "projects/" + project + "/datasets/" + dataset + "/tables/" + table;
  }

  /**
   * The writer schema of rows with {@code event_index}, {@code publish_time} (micros) and payload.
   */
  static ProtoSchema schema(String... extraFields) {
    DescriptorProto.Builder row =
        DescriptorProto.newBuilder()
            .setName("Row")
            .addField(field("event_index", 1, FieldDescriptorProto.Type.TYPE_INT64))
            .addField(field("publish_time", 2, FieldDescriptorProto.Type.TYPE_INT64))
            .addField(field("payload", 3, FieldDescriptorProto.Type.TYPE_STRING));
    int number = 4;
    for (String extra : extraFields) {
      row.addField(field(extra, number++, FieldDescriptorProto.Type.TYPE_STRING));
    }
    return ProtoSchema.newBuilder().setProtoDescriptor(row).build();
  }

  private static FieldDescriptorProto field(
      String name, int number, FieldDescriptorProto.Type type) {
    return FieldDescriptorProto.newBuilder()
        .setName(name)
        .setNumber(number)
        .setType(type)
        .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL)
        .build();
  }

  /** Rows {@code from..from+count-1}, each ~{@code payloadBytes} long, published now. */
  static ProtoRows rows(long from, int count, int payloadBytes) {
    ProtoRows.Builder rows = ProtoRows.newBuilder();
    long nowMicros = System.currentTimeMillis() * 1000;
    String payload = "x".repeat(payloadBytes);
    for (long i = from; i < from + count; i++) {
      ByteString.Output out = ByteString.newOutput();
      try {
        CodedOutputStream coded = CodedOutputStream.newInstance(out);
        coded.writeInt64(1, i);
        coded.writeInt64(2, nowMicros);
        coded.writeString(3, payload);
        coded.flush();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      rows.addSerializedRows(out.toByteString());
    }
    return rows.build();
  }

  StreamWriter.Builder writer(String stream, String job) {
    return StreamWriter.newBuilder(stream, client)
        .setWriterSchema(schema())
        .setChannelProvider(channels)
        .setCredentialsProvider(NoCredentialsProvider.create())
        .setTraceId("Dataflow:" + job + "::");
  }

  @Override
  public void close() {
    client.close();
  }
}
