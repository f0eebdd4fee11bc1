package dev.ingestbench.jmh.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report's arithmetic and contract, on measurements whose answers are known. */
class JmhReportTest {
  private static final JmhSuite.Settings SETTINGS =
      new JmhSuite.Settings(false, 2, 5, 200_000, ".*");

  private static List<Measurement> measurements() {
    List<Measurement> m = new ArrayList<>();
    for (int size : new int[] {500, 10_000}) {
      double scale = size == 500 ? 1 : 4;
      m.add(new Measurement(Route.TABLEROW_TYPED, size, 8.0 * scale, 0.4, 18_000, 10));
      m.add(new Measurement(Route.PROTO, size, 1.0 * scale, 0.05, 2_500, 10));
      m.add(new Measurement(Route.JSON_COLUMN, size, 4.0 * scale, 0.2, 8_000, 10));
      m.add(new Measurement(Route.JSONSTREAMWRITER, size, 12.0 * scale, Double.NaN, 16_000, 2));
      m.add(new Measurement(Route.BYTES_COPY, size, 0.02 * scale, 0.001, 520, 10));
    }
    return m;
  }

  @Test
  @SuppressWarnings("unchecked")
  void summaryHasTheContractKeysAndDerivedNumbers() {
    Map<String, Object> s = JmhReport.summary(measurements(), SETTINGS);
    assertEquals("tablerow-typed", s.get("baseline"));
    Map<String, Map<String, Object>> enc = (Map<String, Map<String, Object>>) s.get("encodings");
    for (String key :
        List.of(
            "proto-500B",
            "tablerow-typed-500B",
            "json-column-10000B",
            "jsonstreamwriter-500B",
            "bytes-copy-500B")) {
      assertTrue(enc.containsKey(key), key + " in " + enc.keySet());
    }
    Map<String, Object> proto = enc.get("proto-500B");
    assertEquals(1_000_000.0, proto.get("rows_per_second_per_vcpu"));
    assertEquals(1.0, proto.get("us_per_row"));
    assertEquals(2_500.0, proto.get("bytes_allocated_per_row"));
    assertEquals(true, proto.get("offered_by_consumer"));
    assertEquals(8.0, proto.get("speedup_vs_baseline"));
    assertEquals(0.2, proto.get("vcpus_for_target"), "200,000 rows/s at 1 µs per row");
    assertEquals(false, enc.get("jsonstreamwriter-500B").get("offered_by_consumer"));
    assertNull(
        enc.get("jsonstreamwriter-500B").get("error_us"),
        "no interval is reported as missing, not as zero");
  }

  @Test
  void markdownHasOneTablePerSizeAndNamesTheConsumerFlags() {
    String md = JmhReport.markdown(measurements(), SETTINGS);
    assertTrue(md.contains("## 500-byte messages") && md.contains("## 10,000-byte messages"), md);
    assertTrue(
        md.contains(
            "| proto | 1.00 ± 0.05 | 1,000,000 | 8.0× | 2,500 | 0.20 | `--rowEncoding=proto --rowFormat=typed` |"),
        md);
    assertTrue(md.contains("| jsonstreamwriter | 12.00 ± n/a |"), md);
  }

  @Test
  void aChartOfRoutesMeasuredAtDifferentSizesIsDrawn(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    // The Avro routes run at 88 and 500 bytes, the JSON ones at 500 and 10,000: the chart once
    // failed on series with different routes.
    List<Measurement> m = measurements();
    m.add(new Measurement(Route.AVRO_PROTO, 88, 0.5, 0.02, 1_200, 10));
    m.add(new Measurement(Route.AVRO_DECODE, 88, 0.2, 0.01, 400, 10));
    m.add(new Measurement(Route.AVRO_PROTO, 500, 0.7, 0.02, 1_900, 10));
    JmhReport.write(m, SETTINGS, dir);
    assertTrue(Files.size(dir.resolve("rows_per_vcpu.svg")) > 10_000, "the chart is drawn");
    assertTrue(Files.readString(dir.resolve("report.md")).contains("## 88-byte messages"));
  }

  @Test
  void routesAreFoundByBenchmarkMethodName() {
    assertEquals(
        Route.AVRO_PROTO,
        Route.ofBenchmark("dev.ingestbench.jmh.AvroRowEncodingBenchmark.avroProto").orElseThrow());
    assertEquals(
        Route.PROTO,
        Route.ofBenchmark("dev.ingestbench.jmh.RowEncodingBenchmark.proto").orElseThrow());
    assertTrue(Route.ofBenchmark("x.Y.somethingElse").isEmpty());
  }
}
