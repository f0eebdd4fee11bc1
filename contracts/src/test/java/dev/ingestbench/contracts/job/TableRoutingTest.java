package dev.ingestbench.contracts.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TableRoutingTest {

  @Test
  void uniformIsTheIndexModuloTheTables() {
    TableRouting routing = new TableRouting(8, TableSkew.UNIFORM);
    for (long i = -20; i < 100; i++) {
      assertEquals((int) Math.floorMod(i, 8L), routing.tableOf(i));
    }
    assertEquals(0, TableRouting.ONE.tableOf(12345));
  }

  @Test
  void zipfGivesEachTableItsShareAndTheHotTablesFirst() {
    TableRouting routing = new TableRouting(1_000, TableSkew.parse("--table-skew", "zipf:1.1"));
    int n = 1_000_000;
    long[] counts = new long[1_000];
    for (long i = 0; i < n; i++) {
      counts[routing.tableOf(i)]++;
    }
    for (int k : new int[] {0, 1, 9, 99}) {
      double expected = routing.share(k) * n;
      // A binomial count: 5 standard deviations apart would be a wrong distribution, not chance.
      double sd = Math.sqrt(expected * (1 - routing.share(k)));
      assertTrue(
          Math.abs(counts[k] - expected) < 5 * sd,
          "table " + k + ": " + counts[k] + " rows, expected " + expected);
    }
    assertTrue(counts[0] > counts[1] && counts[1] > counts[9] && counts[9] > counts[99]);
    double total = 0;
    for (int k = 0; k < 1_000; k++) {
      total += routing.share(k);
    }
    assertEquals(1.0, total, 1e-9);
  }

  @Test
  void theSameEventAlwaysGoesToTheSameTable() {
    TableRouting routing = new TableRouting(10_000, new TableSkew(0.8));
    for (long i = 0; i < 1_000; i++) {
      int k = routing.tableOf(i);
      assertTrue(k >= 0 && k < 10_000);
      assertEquals(k, new TableRouting(10_000, new TableSkew(0.8)).tableOf(i));
    }
  }

  @Test
  void aTableSaysItsRoutingInItsDescription() {
    TableRouting routing = new TableRouting(1_000, TableSkew.parse("--table-skew", "zipf:1.1"));
    assertEquals(
        "ingestbench routing: 1000 tables, zipf:1.1 by event index", routing.description());
    assertEquals(routing, TableRouting.fromDescription(routing.description()));
    assertEquals(
        new TableRouting(4, TableSkew.UNIFORM),
        TableRouting.fromDescription(new TableRouting(4, TableSkew.UNIFORM).description()));
    assertNull(TableRouting.ONE.description());
    assertNull(TableRouting.fromDescription("a table someone made"));
    assertNull(TableRouting.fromDescription(null));
    assertEquals(17, TableRouting.indexOfTable("rides_17"));
    assertEquals(-1, TableRouting.indexOfTable("rides"));
    assertEquals(-1, TableRouting.indexOfTable("rides_x"));
  }

  @Test
  void badSkewsAndCountsAreRefusedNamingTheFlagAndTheFix() {
    for (String bad : new String[] {"zipf", "zipf:0", "zipf:-1", "zipf:abc", "zipf:11", "pareto"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> TableSkew.parse("--table-skew", bad));
      assertTrue(
          e.getMessage()
              .startsWith("--table-skew=" + bad + " is not a skew: use uniform, or zipf:S"),
          e.getMessage());
    }
    assertEquals("zipf:2", TableSkew.parse("--table-skew", "ZIPF:2.0").flag());
    assertEquals(TableSkew.UNIFORM, TableSkew.fromYaml("uniform"));
    for (int bad : new int[] {0, -1, 10_001}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> new TableRouting(bad, TableSkew.UNIFORM));
      assertTrue(e.getMessage().contains("must be 1 to 10,000"), e.getMessage());
    }
  }
}
