package dev.ingestbench.bigquery;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.BidiStream;
import com.google.cloud.bigquery.storage.v1.AppendRowsRequest;
import com.google.cloud.bigquery.storage.v1.AppendRowsResponse;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsRequest;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsResponse;
import com.google.cloud.bigquery.storage.v1.BigQueryWriteClient;
import com.google.cloud.bigquery.storage.v1.CreateWriteStreamRequest;
import com.google.cloud.bigquery.storage.v1.FinalizeWriteStreamResponse;
import com.google.cloud.bigquery.storage.v1.FlushRowsRequest;
import com.google.cloud.bigquery.storage.v1.FlushRowsResponse;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.cloud.bigquery.storage.v1.ProtoSchema;
import com.google.cloud.bigquery.storage.v1.StorageError;
import com.google.cloud.bigquery.storage.v1.WriteStream;
import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.Int64Value;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the conformance cases ({@code conformance/cases.json}) with the official Java client, as
 * {@code run_cases.py} does with the Python one, and records what it observed in the same form: one
 * map per step ({@code code}, {@code storage_error}, {@code offset}, {@code row_errors}, ...).
 */
final class ConformanceCasesJava {
  static final String PROJECT = "conformance";
  static final String DATASET = "cases";

  private final BigQueryWriteClient client;
  private final String restUrl;
  private final JsonNode suite;

  ConformanceCasesJava(BigQueryWriteClient client, String restUrl, JsonNode suite) {
    this.client = client;
    this.restUrl = restUrl;
    this.suite = suite;
  }

  List<List<Map<String, Object>>> run(String prefix) throws Exception {
    List<List<Map<String, Object>>> all = new ArrayList<>();
    int i = 0;
    for (JsonNode c : suite.get("cases")) {
      all.add(runCase(c, i++, prefix));
    }
    return all;
  }

  private List<Map<String, Object>> runCase(JsonNode c, int caseNo, String prefix)
      throws Exception {
    Map<String, String> tables = new LinkedHashMap<>();
    List<String> names = new ArrayList<>();
    c.path("tables").forEach(t -> names.add(t.asText()));
    if (names.isEmpty()) {
      names.add("a");
    }
    for (String t : names) {
      String path =
          "projects/" + PROJECT + "/datasets/" + DATASET + "/tables/" + prefix + caseNo + "_" + t;
      createTable(path);
      tables.put(t, path);
    }
    String first = tables.values().iterator().next();
    Map<String, String> streams = new HashMap<>();
    Map<String, Connection> connections = new HashMap<>();
    List<Map<String, Object>> observed = new ArrayList<>();
    try {
      for (JsonNode step : c.get("steps")) {
        Map<String, Object> obs;
        try {
          obs = runStep(step, first, tables, streams, connections, prefix + caseNo);
        } catch (ApiException e) {
          obs = failed(e);
        }
        observed.add(obs);
      }
    } finally {
      connections.values().forEach(Connection::close);
    }
    return observed;
  }

  private Map<String, Object> runStep(
      JsonNode step,
      String first,
      Map<String, String> tables,
      Map<String, String> streams,
      Map<String, Connection> connections,
      String tablePrefix) {
    String op = step.get("op").asText();
    Map<String, Object> obs = ok();
    switch (op) {
      case "create_stream" -> {
        String table = step.path("table").asText("a");
        String parent =
            tables.getOrDefault(
                table,
                "projects/"
                    + PROJECT
                    + "/datasets/"
                    + DATASET
                    + "/tables/"
                    + tablePrefix
                    + "_"
                    + table);
        WriteStream created =
            client.createWriteStream(
                CreateWriteStreamRequest.newBuilder()
                    .setParent(parent)
                    .setWriteStream(
                        WriteStream.newBuilder()
                            .setType(WriteStream.Type.valueOf(step.get("type").asText())))
                    .build());
        streams.put(step.get("as").asText(), created.getName());
        obs.put("type", created.getType().name());
        obs.put("commit_time", commitTime(created));
      }
      case "get" -> {
        WriteStream got =
            client.getWriteStream(name(step.get("stream").asText(), first, tables, streams));
        obs.put("type", got.getType().name());
        obs.put("commit_time", commitTime(got));
      }
      case "finalize" -> {
        FinalizeWriteStreamResponse done =
            client.finalizeWriteStream(name(step.get("stream").asText(), first, tables, streams));
        obs.put("row_count", done.getRowCount());
      }
      case "flush" -> {
        FlushRowsResponse flushed =
            client.flushRows(
                FlushRowsRequest.newBuilder()
                    .setWriteStream(name(step.get("stream").asText(), first, tables, streams))
                    .setOffset(Int64Value.of(step.get("offset").asLong()))
                    .build());
        obs.put("offset", flushed.getOffset());
      }
      case "commit" -> {
        BatchCommitWriteStreamsRequest.Builder request =
            BatchCommitWriteStreamsRequest.newBuilder().setParent(first);
        step.get("streams")
            .forEach(s -> request.addWriteStreams(name(s.asText(), first, tables, streams)));
        BatchCommitWriteStreamsResponse committed = client.batchCommitWriteStreams(request.build());
        obs.put("commit_time", committed.hasCommitTime() ? "set" : "empty");
        obs.put(
            "stream_errors",
            committed.getStreamErrorsList().stream().map(e -> e.getCode().name()).toList());
      }
      case "append" -> {
        AppendRowsRequest.ProtoData.Builder data = AppendRowsRequest.ProtoData.newBuilder();
        if (step.hasNonNull("schema")) {
          data.setWriterSchema(
              ProtoSchema.newBuilder().setProtoDescriptor(descriptor(step.get("schema").asText())));
        }
        ProtoRows.Builder rows = ProtoRows.newBuilder();
        step.get("rows")
            .forEach(
                r ->
                    rows.addSerializedRows(
                        ByteString.copyFrom(HexFormat.of().parseHex(r.asText()))));
        AppendRowsRequest.Builder request =
            AppendRowsRequest.newBuilder()
                .setWriteStream(name(step.get("stream").asText(), first, tables, streams))
                .setProtoRows(data.setRows(rows));
        if (step.has("offset")) {
          request.setOffset(Int64Value.of(step.get("offset").asLong()));
        }
        return connections
            .computeIfAbsent(step.path("connection").asText("main"), k -> new Connection(client))
            .send(request.build());
      }
      default -> throw new IllegalArgumentException("unknown op " + op);
    }
    return obs;
  }

  private static String name(
      String ref, String first, Map<String, String> tables, Map<String, String> streams) {
    if (streams.containsKey(ref)) {
      return streams.get(ref);
    }
    if (ref.equals("_default")) {
      return first + "/streams/_default";
    }
    if (ref.endsWith("/_default")) {
      return tables.get(ref.substring(0, ref.indexOf('/'))) + "/streams/_default";
    }
    return first + "/streams/" + ref;
  }

  private DescriptorProto descriptor(String schema) {
    DescriptorProto.Builder row = DescriptorProto.newBuilder().setName("Row");
    for (JsonNode f : suite.get("schemas").get(schema)) {
      row.addField(
          FieldDescriptorProto.newBuilder()
              .setName(f.get("name").asText())
              .setNumber(f.get("number").asInt())
              .setType(
                  FieldDescriptorProto.Type.valueOf(
                      "TYPE_" + f.get("type").asText().toUpperCase(Locale.ROOT)))
              .setLabel(
                  f.path("repeated").asBoolean()
                      ? FieldDescriptorProto.Label.LABEL_REPEATED
                      : FieldDescriptorProto.Label.LABEL_OPTIONAL));
    }
    return row.build();
  }

  private void createTable(String path) throws Exception {
    OfficialClient.createTable(
        restUrl,
        PROJECT,
        DATASET,
        path.substring(path.lastIndexOf('/') + 1),
        suite.get("columns").toString());
  }

  private static Map<String, Object> ok() {
    Map<String, Object> obs = new LinkedHashMap<>();
    obs.put("code", "OK");
    obs.put("storage_error", null);
    return obs;
  }

  private static String commitTime(WriteStream stream) {
    if (!stream.hasCommitTime()) {
      return "empty";
    }
    return stream.getCommitTime().equals(stream.getCreateTime()) ? "create_time" : "set";
  }

  /**
   * A call that failed: its status and the StorageError the service attached, as the client
   * received them.
   */
  static Map<String, Object> failed(ApiException e) {
    Map<String, Object> obs = new LinkedHashMap<>();
    obs.put("code", e.getStatusCode().getCode().name());
    com.google.rpc.Status status = StatusProto.fromThrowable(e);
    obs.put("storage_error", status == null ? null : storageError(status));
    return obs;
  }

  private static String storageError(com.google.rpc.Status status) {
    for (Any detail : status.getDetailsList()) {
      if (detail.is(StorageError.class)) {
        try {
          return detail.unpack(StorageError.class).getCode().name();
        } catch (InvalidProtocolBufferException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return null;
  }

  /** One AppendRows bidirectional stream: a request is sent when the previous one was answered. */
  private static final class Connection {
    private final BidiStream<AppendRowsRequest, AppendRowsResponse> stream;
    private final Iterator<AppendRowsResponse> responses;
    private Map<String, Object> broken;

    Connection(BigQueryWriteClient client) {
      this.stream = client.appendRowsCallable().call();
      this.responses = stream.iterator();
    }

    Map<String, Object> send(AppendRowsRequest request) {
      if (broken != null) {
        return broken;
      }
      stream.send(request);
      AppendRowsResponse response;
      try {
        response = responses.next();
      } catch (ApiException e) {
        broken = failed(e);
        return broken;
      }
      Map<String, Object> obs = new LinkedHashMap<>();
      if (response.hasError()) {
        obs.put("code", Status.fromCodeValue(response.getError().getCode()).getCode().name());
        obs.put("storage_error", storageError(response.getError()));
        obs.put("row_errors", response.getRowErrorsList().stream().map(e -> e.getIndex()).toList());
        return obs;
      }
      obs.put("code", "OK");
      obs.put("storage_error", null);
      obs.put(
          "offset",
          response.getAppendResult().hasOffset()
              ? response.getAppendResult().getOffset().getValue()
              : null);
      obs.put("row_errors", List.of());
      return obs;
    }

    void close() {
      stream.closeSend();
    }
  }
}
