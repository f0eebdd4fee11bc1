package dev.ingestbench.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.api.services.bigquery.model.Table;
import dev.ingestbench.contracts.JobRouting;
import dev.ingestbench.contracts.job.TableRouting;
import dev.ingestbench.contracts.job.TableSkew;
import org.junit.jupiter.api.Test;

/** Which events belong in a table: read from its description, dropped when two routings meet. */
class TablesRoutingTest {
  private static Table described(TableRouting routing) {
    return new Table().setDescription(routing.description());
  }

  @Test
  void aTableOfSeveralKnowsItsNumberAndRoutingAndASecondRoutingLeavesItUnchecked() {
    Tables tables = new Tables();
    TableRouting four = new TableRouting(4, TableSkew.UNIFORM);
    TableId third = new TableId("p", "d", "rides_2");
    assertTrue(tables.create(third, described(four)));
    Tables.Route route = tables.get(third).route();
    assertNotNull(route);
    assertEquals(2, route.table());
    assertEquals(2, route.tableOf(6), "6 mod 4");

    assertFalse(
        tables.create(third, described(four)), "the same routing again: a 409, nothing else");
    assertNotNull(tables.get(third).route());
    assertFalse(
        tables.create(third, described(new TableRouting(8, TableSkew.UNIFORM))),
        "another routing: a 409 too");
    assertNull(tables.get(third).route(), "two routings: its rows are no longer checked");

    TableId plain = new TableId("p", "d", "rides");
    tables.create(plain, new Table().setDescription("made by someone else"));
    assertNull(tables.get(plain).route(), "no routing stated: not checked");
    TableId beyond = new TableId("p", "d", "rides_7");
    tables.create(beyond, described(four));
    assertNull(tables.get(beyond).route(), "number 7 of 4 tables: not one of them");
  }

  /** Two jobs that share table names and route differently: each checked by its own routing. */
  @Test
  void aJobsDeclaredRoutingIsWhatItsRowsAreCheckedBy() {
    Tables tables = new Tables();
    TableId third = new TableId("p", "d", "rides_2");
    tables.create(third, described(new TableRouting(4, TableSkew.UNIFORM)));
    Tables.Entry entry = tables.get(third);
    tables.declare("a", new JobRouting("d", "rides", 4, "uniform"));
    tables.declare("b", new JobRouting("d", "rides", 8, "zipf:1.1"));
    assertEquals(
        new TableRouting(4, TableSkew.UNIFORM), tables.routeOf("a", third, entry).routing());
    assertEquals(
        new TableRouting(8, new TableSkew(1.1)), tables.routeOf("b", third, entry).routing());
    assertEquals(2, tables.routeOf("b", third, entry).table());
    assertNull(
        tables.routeOf("a", new TableId("p", "d", "rides_dlq"), entry),
        "not one of its destinations: not checked");
    assertNull(tables.routeOf("a", new TableId("p", "d", "rides_7"), entry), "7 of 4 tables");
    assertEquals(
        entry.route(), tables.routeOf("c", third, entry), "undeclared: the table's description");
  }
}
