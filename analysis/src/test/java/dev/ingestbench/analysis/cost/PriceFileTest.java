package dev.ingestbench.analysis.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The price file: the project's own reads whole; a file that is not whole is refused by line. */
class PriceFileTest {
  private static final String HEADER =
      "sku,unit,usd,free_per_month,region,source,source_date,read_date,status\n";
  private static final String VCPU =
      "dataflow.streaming.vcpu,vcpu-hour,0.069,,us-central1,https://x,2026-03-03,2026-11-28,confirmed\n";

  @Test
  void theBuiltInFileHasEveryPriceWithItsSourceAndDates() {
    PriceFile f = PriceFile.builtIn();
    Price vcpu = f.require(Skus.DATAFLOW_VCPU, "us-central1");
    assertEquals(0.069, vcpu.usd());
    assertEquals(PriceUnit.VCPU_HOUR, vcpu.unit());
    assertEquals(LocalDate.parse("2026-03-03"), vcpu.sourceDate());
    assertEquals(LocalDate.parse("2026-11-28"), vcpu.readDate());
    assertTrue(vcpu.confirmed());
    Price pubsub = f.require(Skus.PUBSUB_THROUGHPUT, "asia-southeast1");
    assertEquals("*", pubsub.region(), "Pub/Sub's price is every region's");
    assertNull(pubsub.sourceDate(), "its page states no date");
    assertEquals(10.0 / 1024, pubsub.freePerMonth(), 1e-12);
    assertFalse(f.require(Skus.STORAGE_WRITE_API, "us-central1").confirmed());
    assertEquals(2048, f.require(Skus.STORAGE_WRITE_API, "us-central1").freePerMonth());
    assertEquals(List.of("us-central1", "us-west2"), f.regions());
  }

  @Test
  void aRegionWithoutAPriceIsRefusedWithTheRegionsTheFileHas() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> PriceFile.builtIn().require(Skus.DATAFLOW_VCPU, "asia-southeast1"));
    assertTrue(
        e.getMessage().contains("no price for dataflow.streaming.vcpu in asia-southeast1"),
        e.getMessage());
    assertTrue(e.getMessage().contains("its regions: us-central1, us-west2"), e.getMessage());
    assertTrue(e.getMessage().contains("--prices FILE"), e.getMessage());
    // Not the disk price of another region either: us-west2 has none.
    assertThrows(
        IllegalArgumentException.class,
        () -> PriceFile.builtIn().require(Skus.DATAFLOW_DISK, "us-west2"));
  }

  @Test
  void aFileThatIsNotWholeIsRefusedNamingTheLineAndWhatIsMissing() {
    assertEquals(
        "f line 3: no usd: every line needs one",
        refusal(HEADER + VCPU + VCPU.replace("0.069", "").replace("vcpu,", "memory,")));
    assertEquals(
        "f line 2: usd -0.069 is negative: a price is 0 or more",
        refusal(HEADER + VCPU.replace("0.069", "-0.069")));
    assertTrue(
        refusal(HEADER + VCPU.replace("vcpu-hour", "vcpu-minute"))
            .startsWith(
                "f line 2: unit 'vcpu-minute' is not known; use one of vcpu-hour, gb-hour"));
    assertEquals(
        "f line 2: source_date '3 March' is not a date as 2026-11-28",
        refusal(HEADER + VCPU.replace("2026-03-03", "3 March")));
    assertEquals(
        "f line 2: usd 'cheap' is not a number, e.g. 0.069",
        refusal(HEADER + VCPU.replace("0.069", "cheap")));
    assertEquals(
        "f line 3: dataflow.streaming.vcpu in us-central1 is priced twice: keep one line of the two",
        refusal(HEADER + VCPU + VCPU));
    assertTrue(refusal("# only a comment\n" + VCPU).startsWith("f line 2: the header must be"));
    assertTrue(
        refusal(HEADER + VCPU.replace(",confirmed", ",maybe"))
            .contains("status 'maybe' is neither confirmed nor unconfirmed"));
    assertTrue(
        refusal(HEADER + VCPU.replace(",us-central1,", ",us-central1,extra,"))
            .startsWith("f line 2: 10 fields where the header has 9"));
  }

  @Test
  void aPriceInAnotherUnitThanItsSkusIsRefusedNotUsedAsIfItWere() {
    assertEquals(
        "f line 2: dataflow.streaming.vcpu is priced per vcpu-hour, not per gb-hour: convert the"
            + " price (docs/cost.md lists each SKU's unit)",
        refusal(HEADER + VCPU.replace("vcpu-hour", "gb-hour")));
    assertEquals(
        "f line 2: usd 'NaN' is not a number, e.g. 0.069",
        refusal(HEADER + VCPU.replace("0.069", "NaN")));
  }

  @Test
  void aRegionsOwnPriceComesBeforeThePriceForEveryRegion() {
    String everywhere = VCPU.replace(",us-central1,", ",*,").replace("0.069", "0.1");
    PriceFile f = PriceFile.parse("f", HEADER + everywhere + VCPU);
    assertEquals(0.069, f.require(Skus.DATAFLOW_VCPU, "us-central1").usd());
    assertEquals(0.1, f.require(Skus.DATAFLOW_VCPU, "us-west2").usd());
  }

  @Test
  void commentsAndBlankLinesAreSkippedAndAnEmptySourceDateIsUndated() {
    PriceFile f =
        PriceFile.parse("f", "# prices\n\n" + HEADER + VCPU.replace("2026-03-03", "") + "\n");
    assertEquals(1, f.prices().size());
    assertTrue(f.prices().get(0).citation().contains("undated"));
  }

  private static String refusal(String text) {
    return assertThrows(IllegalArgumentException.class, () -> PriceFile.parse("f", text))
        .getMessage();
  }
}
