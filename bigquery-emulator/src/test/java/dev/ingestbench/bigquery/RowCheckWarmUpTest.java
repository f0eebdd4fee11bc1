package dev.ingestbench.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The warm-up's rows are ones the check accepts: it compiles the path every good row takes. */
class RowCheckWarmUpTest {
  @Test
  void everyWarmUpRowOfBothFormatsHoldsWhatItsEventMustProduce() {
    assertEquals(0, RowCheckWarmUp.run(7, 2_000));
  }
}
