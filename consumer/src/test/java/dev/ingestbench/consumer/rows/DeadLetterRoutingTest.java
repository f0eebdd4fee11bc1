package dev.ingestbench.consumer.rows;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.api.services.bigquery.model.TableRow;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.events.MessageAttributes;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRideGenerator;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowJsonCoder;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessageWithAttributesAndMessageIdCoder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Every kind of bad message through the consumer's own conversion step on Beam's direct runner:
 * each ends in the dead-letter output with the stage that refused it, a reason naming the problem,
 * and its bytes exactly as they arrived (base64 of a BYTES column).
 */
class DeadLetterRoutingTest {
  private static final TaxiRideGenerator GENERATOR = new TaxiRideGenerator(3, 500);
  private static final int MAX_MESSAGE_BYTES = 2_000;
  private static final TupleTag<TableRow> ROWS = new TupleTag<>() {};

  /** What one bad message must become. */
  private record Expected(String stage, String errorContains, byte[] payload)
      implements Serializable {}

  @Test
  void eachBadMessageIsDeadLetteredByteExactWithItsStageAndReason() {
    Map<String, byte[]> messages = new HashMap<>();
    Map<String, Expected> expected = new HashMap<>();
    String good = new String(GENERATOR.message(1), StandardCharsets.UTF_8);

    byte[] invalidUtf8 =
        good.replace("\"ride_id\":\"", "\"ride_id\":\"\u00e9").getBytes(StandardCharsets.UTF_8);
    int at = indexOf(invalidUtf8, (byte) 0xC3);
    invalidUtf8[at + 1] = 0x28; // C3 28: a lead byte without its continuation byte
    add(
        messages,
        expected,
        "invalid-utf8",
        invalidUtf8,
        "decode",
        "not valid UTF-8: byte C3 at offset " + at);
    add(
        messages,
        expected,
        "utf16-bom",
        good.getBytes(StandardCharsets.UTF_16),
        "decode",
        "UTF-16 (it starts with the byte-order mark FE FF)");
    add(
        messages,
        expected,
        "utf16le-bom",
        concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, good.getBytes(StandardCharsets.UTF_16LE)),
        "decode",
        "UTF-16 (it starts with the byte-order mark FF FE)");
    add(
        messages,
        expected,
        "utf16-no-bom",
        good.getBytes(StandardCharsets.UTF_16BE),
        "decode",
        "zero byte");
    add(
        messages,
        expected,
        "utf8-bom",
        concat(
            new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
            good.getBytes(StandardCharsets.UTF_8)),
        "decode",
        "UTF-8 byte-order mark");
    add(
        messages,
        expected,
        "schema-violating",
        good.replaceFirst("\"passenger_count\":\\d+", "\"passenger_count\":\"three\"")
            .getBytes(StandardCharsets.UTF_8),
        "parse",
        "passenger_count");
    add(
        messages,
        expected,
        "not-json",
        "ride 1 at 10:00".getBytes(StandardCharsets.UTF_8),
        "parse",
        "Unrecognized token 'ride'");
    add(messages, expected, "empty", new byte[0], "parse", "");
    byte[] oversized = new TaxiRideGenerator(3, MAX_MESSAGE_BYTES + 1).message(2);
    add(
        messages,
        expected,
        "oversized",
        oversized,
        "size",
        "2,001 bytes, over --maxMessageBytes=2,000");
    byte[] huge = new TaxiRideGenerator(3, 100_000).message(3);
    expected.put(
        "huge",
        new Expected(
            "size", "the dead letter keeps its first 65,536 bytes", Arrays.copyOf(huge, 65_536)));
    messages.put("huge", huge);
    messages.put("good", GENERATOR.message(4));

    PipelineOptions options = PipelineOptionsFactory.create();
    options.setRunner(DirectRunner.class);
    Pipeline pipeline = Pipeline.create(options);
    List<TimestampedValue<PubsubMessage>> input = new ArrayList<>();
    long index = 100;
    for (Map.Entry<String, byte[]> m : messages.entrySet()) {
      input.add(
          TimestampedValue.of(
              new PubsubMessage(
                  m.getValue(),
                  Map.of(MessageAttributes.EVENT_INDEX, Long.toString(index++)),
                  m.getKey()),
              new Instant(1_700_000_000_000L)));
    }
    TupleTag<TableRow> rows = ROWS;
    PCollectionTuple out =
        pipeline
            .apply(
                Create.timestamped(input)
                    .withCoder(PubsubMessageWithAttributesAndMessageIdCoder.of()))
            .apply(
                ParDo.of(
                        new ConvertToRowsFn<>(
                            MessageFormat.JSON,
                            MAX_MESSAGE_BYTES,
                            0,
                            RowFormat.TYPED,
                            "sub",
                            MessageToRow::convert,
                            rows))
                    .withOutputTags(rows, TupleTagList.of(ConvertToRowsFn.DEAD_LETTERS)));
    out.get(rows).setCoder(TableRowJsonCoder.of());
    PAssert.that(out.get(rows))
        .satisfies(
            written -> {
              List<String> ids = new ArrayList<>();
              written.forEach(r -> ids.add((String) r.get(RowSchemas.MESSAGE_ID)));
              assertEquals(List.of("good"), ids, "only the good message becomes a row");
              return null;
            });
    PAssert.that(out.get(ConvertToRowsFn.DEAD_LETTERS).setCoder(TableRowJsonCoder.of()))
        .satisfies(
            deadLetters -> {
              Map<String, TableRow> byId = new HashMap<>();
              deadLetters.forEach(r -> byId.put((String) r.get(RowSchemas.MESSAGE_ID), r));
              assertEquals(
                  expected.keySet(),
                  byId.keySet(),
                  "every bad message, and only those, dead-lettered");
              for (Map.Entry<String, Expected> e : expected.entrySet()) {
                TableRow row = byId.get(e.getKey());
                String error = (String) row.get(RowSchemas.ERROR);
                assertEquals(
                    e.getValue().stage(),
                    row.get(RowSchemas.ERROR_STAGE),
                    e.getKey() + ": " + error);
                assertTrue(error.contains(e.getValue().errorContains()), e.getKey() + ": " + error);
                assertArrayEquals(
                    e.getValue().payload(),
                    Base64.getDecoder().decode((String) row.get(RowSchemas.PAYLOAD)),
                    e.getKey() + ": the payload is the message's bytes");
                assertEquals(
                    (long) messages.get(e.getKey()).length,
                    Long.parseLong(String.valueOf(row.get(RowSchemas.PAYLOAD_BYTES))),
                    e.getKey() + ": payload_bytes is the message's size");
                assertNotNull(row.get(RowSchemas.EVENT_INDEX), e.getKey());
              }
              return null;
            });
    pipeline.run().waitUntilFinish();
  }

  @Test
  void utf8ChecksAcceptEveryValidTextAndNameTheFirstBadByte() {
    assertNull(
        PayloadChecks.jsonEncodingProblem(
            "{\"a\":\"caf\u00e9 \u6771\u4eac \ud83d\ude95\"}".getBytes(StandardCharsets.UTF_8)));
    assertNull(PayloadChecks.jsonEncodingProblem(new byte[0]));
    assertTrue(
        PayloadChecks.utf8Problem(new byte[] {'a', (byte) 0xFF})
            .contains("byte FF at offset 1 of 2"));
    // An encoded surrogate (CESU-8) is not UTF-8.
    assertTrue(
        PayloadChecks.utf8Problem(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80})
            .contains("offset 0"));
    // A sequence cut off at the end.
    assertTrue(
        PayloadChecks.utf8Problem(new byte[] {'a', 'b', (byte) 0xE6, (byte) 0x9D})
            .contains("offset 2"));
  }

  private static void add(
      Map<String, byte[]> messages,
      Map<String, Expected> expected,
      String id,
      byte[] payload,
      String stage,
      String errorContains) {
    messages.put(id, payload);
    expected.put(id, new Expected(stage, errorContains, payload));
  }

  private static int indexOf(byte[] bytes, byte b) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    throw new AssertionError("no byte " + b);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
