package dev.ingestbench.consumer.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.events.MessageAttributes;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRide;
import dev.ingestbench.events.TaxiRideAvro;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.events.TaxiRideJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * One set of malformed messages through every route (row format x row encoding), each through the
 * consumer's own conversion step ({@link ConvertToRowsFn#convert}): every message must land, or be
 * dead-lettered at the same stage with the same reason, whichever route is chosen. The expected
 * outcome of each is stated too, so the rule itself cannot drift (a route that accepted a timestamp
 * without an offset made another route's refusal look like a bug of that route).
 */
class MalformedMessagesEveryRouteTest {
  private static final TaxiRideGenerator GENERATOR = new TaxiRideGenerator(7, 500);
  private static final int MAX_MESSAGE_BYTES = 20_000;
  private static final String GOOD = new String(GENERATOR.message(1), StandardCharsets.UTF_8);
  private static final TaxiRide RIDE = GENERATOR.event(1);

  /** One message and what must become of it: null stage for a row. */
  private record Case(
      String name,
      MessageFormat format,
      String index,
      byte[] payload,
      String stage,
      String reason) {}

  private static final List<Case> CASES = new ArrayList<>();

  private static void json(String name, String payload, String stage, String reason) {
    CASES.add(
        new Case(
            name,
            MessageFormat.JSON,
            "5",
            payload.getBytes(StandardCharsets.UTF_8),
            stage,
            reason));
  }

  private static void withIndex(String name, String index, String stage, String reason) {
    CASES.add(
        new Case(
            name, MessageFormat.JSON, index, GOOD.getBytes(StandardCharsets.UTF_8), stage, reason));
  }

  private static void avro(String name, byte[] payload, String stage, String reason) {
    CASES.add(new Case(name, MessageFormat.AVRO, "5", payload, stage, reason));
  }

  private static String replaceField(String field, String value) {
    return GOOD.replaceFirst("\"" + field + "\":(\"[^\"]*\"|[^,}]*)", "\"" + field + "\":" + value);
  }

  static {
    json("good", GOOD, null, null);
    json("surrogate pair escaped", replaceField("ride_id", "\"r\\\\ud83d\\\\ude95\""), null, null);
    json("timestamp Z", replaceField("timestamp", "\"2026-02-12T09:02:50Z\""), null, null);
    json(
        "timestamp without offset",
        replaceField("timestamp", "\"2026-02-12T09:02:50.123456\""),
        "parse",
        "timestamp '2026-02-12T09:02:50.123456' is not an ISO-8601 timestamp with an offset");
    json(
        "garbage timestamp",
        replaceField("timestamp", "\"yesterday\""),
        "parse",
        "timestamp 'yesterday' is not");
    json(
        "timestamp in year 0",
        replaceField("timestamp", "\"0000-06-01T00:00:00Z\""),
        "parse",
        "outside BigQuery's TIMESTAMP range");
    json(
        "timestamp in year 10000",
        replaceField("timestamp", "\"+10000-01-01T00:00:00Z\""),
        "parse",
        "outside BigQuery's TIMESTAMP range");
    json(
        "lone surrogate",
        replaceField("ride_id", "\"r\\\\ud800x\""),
        "parse",
        "'ride_id' holds a lone UTF-16 surrogate \\uD800 at character 1");
    json(
        "lone surrogate in padding",
        replaceField("_padding", "\"\\\\udfff\""),
        "parse",
        "'_padding' holds a lone");
    json("empty", "", "parse", "payload is empty");
    json("white space", "  \n ", "parse", "holds no JSON value");
    json("two objects", GOOD + GOOD, "parse", "data after its JSON object (an object)");
    json("trailing garbage", GOOD + " x", "parse", "not valid JSON: Unrecognized token 'x'");
    json("array", "[" + GOOD + "]", "parse", "it is an array, not a JSON object");
    json(
        "deep nesting",
        "[".repeat(3_000) + "]".repeat(3_000),
        "parse",
        "it is an array, not a JSON object");
    json(
        "deep nesting in a field",
        replaceField("ride_id", "[".repeat(3_000) + "]".repeat(3_000)),
        "parse",
        "'ride_id' must be a string, not an array");
    json("null", "null", "parse", "it is null, not a JSON object");
    json("not json", "ride 1 at 10:00", "parse", "not valid JSON");
    json(
        "unknown field",
        GOOD.replace("{", "{\"surprise\":1,"),
        "parse",
        "unknown field \"surprise\"");
    json(
        "duplicate field",
        GOOD.replace("{", "{\"ride_id\":\"other\","),
        "parse",
        "the field 'ride_id' appears twice");
    json(
        "missing field",
        GOOD.replaceFirst("\"point_idx\":\\d+,", ""),
        "parse",
        "missing required field 'point_idx'");
    json(
        "count as text",
        replaceField("passenger_count", "\"three\""),
        "parse",
        "'passenger_count' must be a whole number, not a string");
    json(
        "count with fraction",
        replaceField("passenger_count", "2.5"),
        "parse",
        "'passenger_count' must be a whole number, not a number with a fraction");
    json(
        "count out of range",
        replaceField("passenger_count", "3000000000"),
        "parse",
        "'passenger_count' is 3000000000, out of range");
    json(
        "latitude overflow",
        replaceField("latitude", "1e999"),
        "parse",
        "beyond what a FLOAT64 holds");
    json(
        "null id",
        replaceField("ride_id", "null"),
        "parse",
        "'ride_id' must be a string, not null");
    json("null padding", replaceField("_padding", "null"), null, null);
    json("other json object", "{\"hello\":\"world\"}", "parse", "unknown field \"hello\"");
    byte[] latin1 = "{\"ride_id\":\"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1);
    CASES.add(
        new Case(
            "latin-1",
            MessageFormat.JSON,
            "5",
            latin1,
            "decode",
            "not valid UTF-8: byte E9 at offset 15"));
    json(
        "too large",
        replaceField("_padding", "\"" + "x".repeat(MAX_MESSAGE_BYTES) + "\""),
        "size",
        "over --maxMessageBytes=20,000");
    withIndex("index 007", "007", "parse", "event_index='007' is not an event index");
    withIndex("index -1", "-1", "parse", "event_index='-1' is not an event index");
    withIndex("index +7", "+7", "parse", "event_index='+7' is not an event index");
    withIndex("index seven", "seven", "parse", "event_index='seven' is not an event index");
    withIndex("index empty", "", "parse", "event_index='' is not an event index");
    withIndex("index beyond int64", "99999999999999999999", "parse", "is not an event index");
    withIndex(
        "index just beyond int64",
        "9223372036854775808",
        "parse",
        "larger than an INT64 event index");
    withIndex("index 0", "0", null, null);
    withIndex("no index", null, null, null);

    byte[] avro = TaxiRideAvro.toBytes(RIDE);
    avro("avro good", avro, null, null);
    avro(
        "avro truncated",
        Arrays.copyOf(avro, avro.length - 5),
        "parse",
        "payload is not an Avro taxi-ride record");
    avro("avro empty", new byte[0], "parse", "it is empty");
    avro(
        "avro timestamp without offset",
        TaxiRideAvro.toBytes(
            new TaxiRide(
                RIDE.rideId(),
                RIDE.rideStatus(),
                RIDE.latitude(),
                RIDE.longitude(),
                RIDE.passengerCount(),
                RIDE.meterReading(),
                RIDE.meterIncrement(),
                RIDE.pointIdx(),
                "2026-02-12T09:02:50",
                RIDE.padding())),
        "parse",
        "is not an ISO-8601 timestamp with an offset");
    avro(
        "avro json bytes",
        GOOD.getBytes(StandardCharsets.UTF_8),
        "parse",
        "payload is not an Avro taxi-ride record");
  }

  /** Every route: row format x encoding, each encoding's own builder. */
  private static Map<String, RowBuilder<?>> routes() {
    Map<String, RowBuilder<?>> routes = new LinkedHashMap<>();
    for (RowFormat format : RowFormat.values()) {
      routes.put(
          format.flag() + "/tablerow",
          (RowBuilder<Object>) (m, f, md, p) -> MessageToRow.convert(m, format, md, p));
      routes.put(
          format.flag() + "/beam-row",
          (RowBuilder<Object>) (m, f, md, p) -> MessageToBeamRow.convert(m, format, md, p));
      routes.put(
          format.flag() + "/proto",
          (RowBuilder<Object>) (m, f, md, p) -> MessageToProto.convert(m, format, md, p));
    }
    return routes;
  }

  @Test
  void everyMessageLandsOrIsRefusedAlikeOnEveryRoute() {
    assertEquals(6, routes().size(), "2 row formats x 3 encodings");
    List<String> wrong = new ArrayList<>();
    for (Case c : CASES) {
      Map<String, String> outcomes = new TreeMap<>();
      for (Map.Entry<String, RowBuilder<?>> route : routes().entrySet()) {
        outcomes.put(route.getKey(), outcome(c, route.getValue()));
      }
      if (outcomes.values().stream().distinct().count() != 1) {
        wrong.add(c.name() + ": the routes disagree: " + outcomes);
        continue;
      }
      String outcome = outcomes.values().iterator().next();
      boolean expected =
          c.stage() == null
              ? outcome.equals("row")
              : outcome.startsWith(c.stage() + ": ") && outcome.contains(c.reason());
      if (!expected) {
        wrong.add(
            c.name()
                + ": expected "
                + (c.stage() == null ? "a row" : c.stage() + " '" + c.reason() + "'")
                + ", every route gave "
                + outcome);
      }
    }
    assertTrue(wrong.isEmpty(), String.join("\n", wrong));
  }

  @Test
  void aRowIsTheEventEveryRouteReadsAlike() {
    TaxiRide parsed = EventChecks.parse(MessageFormat.JSON, GOOD.getBytes(StandardCharsets.UTF_8));
    assertEquals(RIDE, parsed.withoutPadding());
    assertEquals(500, TaxiRideJson.toBytes(parsed).length, "the padding is read too");
    assertEquals(RIDE, EventChecks.parse(MessageFormat.AVRO, TaxiRideAvro.toBytes(RIDE)));
    assertEquals(
        RIDE,
        TaxiRideJson.parse(TaxiRideJson.toBytes(RIDE)),
        "what the publisher writes reads back");
  }

  private static String outcome(Case c, RowBuilder<?> builder) {
    Map<String, String> attributes =
        c.index() == null ? Map.of() : Map.of(MessageAttributes.EVENT_INDEX, c.index());
    MessageMetadata metadata =
        new MessageMetadata("sub", "m-1", attributes, 1_000_000L, 2_000_000L);
    Object[] row = new Object[1];
    @SuppressWarnings("unchecked")
    ConvertToRowsFn.Refusal refusal =
        ConvertToRowsFn.convert(
            c.format(),
            MAX_MESSAGE_BYTES,
            RowFormat.TYPED,
            (RowBuilder<Object>) builder,
            metadata,
            c.payload(),
            r -> row[0] = r);
    if (refusal == null) {
      assertNotNull(row[0], c.name());
      return "row";
    }
    assertNull(row[0], c.name());
    return refusal.stage() + ": " + refusal.reason();
  }
}
