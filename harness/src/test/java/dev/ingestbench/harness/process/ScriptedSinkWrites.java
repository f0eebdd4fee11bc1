package dev.ingestbench.harness.process;

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
import dev.ingestbench.contracts.RowKeyColumns;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.events.TaxiRideJson;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

/**
 * What a scripted consumer writes to the BigQuery emulator process in its place: the rows of the
 * first {@code count} events, as a json-column job writes them (event index, publish time, message
 * id, the event's JSON), through the official client under the job's trace id, so that the emulator
 * counts and checks them as a pipeline's.
 */
public final class ScriptedSinkWrites {
  private ScriptedSinkWrites() {}

  /**
   * Writes events {@code 0..count-1} of {@code seed} as the consumer started with {@code command}
   * would: its job name, project, table and BigQuery emulator endpoints.
   */
  public static void write(List<String> command, long seed, int count) throws Exception {
    String grpc = ScriptedRuns.flag(command, "--storageWriteEndpoint");
    String rest = ScriptedRuns.flag(command, "--bigQueryEndpoint");
    String project = ScriptedRuns.flag(command, "--project");
    String[] table = ScriptedRuns.flag(command, "--outputTable").split("\\.");
    String stream = createTable(rest, project, table[0], table[1]) + "/streams/_default";
    InstantiatingGrpcChannelProvider channels =
        InstantiatingGrpcChannelProvider.newBuilder()
            .setEndpoint(grpc)
            .setChannelConfigurator(ManagedChannelBuilder::usePlaintext)
            .build();
    try (BigQueryWriteClient client =
            BigQueryWriteClient.create(
                BigQueryWriteSettings.newBuilder()
                    .setEndpoint(grpc)
                    .setCredentialsProvider(NoCredentialsProvider.create())
                    .setTransportChannelProvider(channels)
                    .build());
        StreamWriter writer =
            StreamWriter.newBuilder(stream, client)
                .setWriterSchema(schema())
                .setChannelProvider(channels)
                .setCredentialsProvider(NoCredentialsProvider.create())
                .setTraceId("Dataflow:" + ScriptedRuns.flag(command, "--jobName") + "::")
                .build()) {
      writer.append(rows(seed, count)).get();
    }
  }

  /** The table, made now if it does not exist yet; its resource name. */
  private static String createTable(String rest, String project, String dataset, String table)
      throws Exception {
    String fields =
        "[{\"name\":\"event_index\",\"type\":\"INT64\"},{\"name\":\"publish_time\",\"type\":\"TIMESTAMP\"},"
            + "{\"name\":\"message_id\",\"type\":\"STRING\"},{\"name\":\"payload\",\"type\":\"JSON\"}]";
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
                            rest
                                + "/bigquery/v2/projects/"
                                + project
                                + "/datasets/"
                                + dataset
                                + "/tables"))
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200 && response.statusCode() != 409) {
      throw new IOException(
          "creating " + table + ": " + response.statusCode() + " " + response.body());
    }
    return "projects/" + project + "/datasets/" + dataset + "/tables/" + table;
  }

  private static ProtoSchema schema() {
    DescriptorProto row =
        DescriptorProto.newBuilder()
            .setName("Row")
            .addField(field(RowKeyColumns.EVENT_INDEX, 1, FieldDescriptorProto.Type.TYPE_INT64))
            .addField(field(RowKeyColumns.PUBLISH_TIME, 2, FieldDescriptorProto.Type.TYPE_INT64))
            .addField(field(RowKeyColumns.MESSAGE_ID, 3, FieldDescriptorProto.Type.TYPE_STRING))
            .addField(field("payload", 4, FieldDescriptorProto.Type.TYPE_STRING))
            .build();
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

  private static ProtoRows rows(long seed, int count) throws IOException {
    TaxiRideGenerator generator = new TaxiRideGenerator(seed, 1);
    long nowMicros = System.currentTimeMillis() * 1000;
    ProtoRows.Builder rows = ProtoRows.newBuilder();
    for (long i = 0; i < count; i++) {
      ByteString.Output out = ByteString.newOutput();
      CodedOutputStream coded = CodedOutputStream.newInstance(out);
      coded.writeInt64(1, i);
      coded.writeInt64(2, nowMicros);
      coded.writeString(3, "m" + i);
      coded.writeByteArray(4, TaxiRideJson.toBytes(generator.event(i)));
      coded.flush();
      rows.addSerializedRows(out.toByteString());
    }
    return rows.build();
  }
}
