package dev.ingestbench.jmh.report;

import java.util.Arrays;
import java.util.Optional;

/**
 * The routes of {@code RowEncodingBenchmark} and {@code AvroRowEncodingBenchmark}, by the names
 * reports and summary.json use.
 */
public enum Route {
  JSON_COLUMN("jsonColumn", "json-column", true, "--rowEncoding=tablerow --rowFormat=json-column"),
  TABLEROW_TYPED(
      "tablerowTyped", "tablerow-typed", true, "--rowEncoding=tablerow --rowFormat=typed"),
  BEAM_ROW("beamRow", "beam-row", true, "--rowEncoding=beam-row --rowFormat=typed"),
  PROTO("proto", "proto", true, "--rowEncoding=proto --rowFormat=typed"),
  AVRO_TABLEROW(
      "avroTablerow",
      "avro-tablerow",
      true,
      "--messageFormat=avro --rowEncoding=tablerow --rowFormat=typed"),
  AVRO_BEAM_ROW(
      "avroBeamRow",
      "avro-beam-row",
      true,
      "--messageFormat=avro --rowEncoding=beam-row --rowFormat=typed"),
  AVRO_PROTO(
      "avroProto",
      "avro-proto",
      true,
      "--messageFormat=avro --rowEncoding=proto --rowFormat=typed"),
  JSONSTREAMWRITER(
      "jsonStreamWriter",
      "jsonstreamwriter",
      false,
      "reference: bigquerystorage JsonToProtoMessage"),
  PARSE_TREE("parseTree", "parse-tree", false, "parse only: bytes to a Jackson tree"),
  PARSE_POJO("parsePojo", "parse-pojo", false, "parse only: bytes to the event POJO"),
  AVRO_DECODE("avroDecode", "avro-decode", false, "decode only: Avro bytes to the event"),
  BYTES_COPY("bytesCopy", "bytes-copy", false, "lower bound: copy the message bytes");

  /** The route every other is compared with. */
  public static final Route BASELINE = TABLEROW_TYPED;

  final String method;
  final String label;
  final boolean offeredByConsumer;
  final String how;

  Route(String method, String label, boolean offeredByConsumer, String how) {
    this.method = method;
    this.label = label;
    this.offeredByConsumer = offeredByConsumer;
    this.how = how;
  }

  public String label() {
    return label;
  }

  static Optional<Route> ofBenchmark(String benchmark) {
    String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
    return Arrays.stream(values()).filter(r -> r.method.equals(method)).findFirst();
  }
}
