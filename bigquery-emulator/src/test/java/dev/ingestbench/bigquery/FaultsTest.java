package dev.ingestbench.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.FaultCount;
import io.grpc.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultsTest {
  @Test
  void fractionsAreExactAndEvenlySpaced() {
    Faults faults = Faults.parse(List.of("unavailable=0.25", "drop=0.1"));
    assertEquals(Status.Code.UNAVAILABLE, faults.failCode());
    int failed = 0;
    int dropped = 0;
    StringBuilder pattern = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      boolean fail = faults.failNow();
      failed += fail ? 1 : 0;
      dropped += faults.dropNow() ? 1 : 0;
      if (i < 8) {
        pattern.append(fail ? 'x' : '.');
      }
    }
    assertEquals(25, failed);
    assertEquals(10, dropped);
    assertEquals("...x...x", pattern.toString());
  }

  @Test
  void everyFaultSaysWhatItsFractionIsOfAndHowOftenItFired() {
    Faults faults =
        Faults.parse(
            List.of("unavailable=0.25", "flush-rows:internal=0.5", "discard=0.01", "drain-at=5"));
    for (int i = 0; i < 57; i++) {
      faults.failNow();
      faults.copiesNow();
    }
    faults.failNow(Faults.Rpc.FLUSH_ROWS);
    faults.failNow(Faults.Rpc.FLUSH_ROWS);
    assertEquals(
        List.of(
            new FaultCount("unavailable=0.25", 0.25, "AppendRows requests", 57, 14),
            new FaultCount("flush-rows:internal=0.5", 0.5, "FlushRows calls", 2, 1),
            new FaultCount("discard=0.01", 0.01, "appends that reached the store", 57, 0),
            new FaultCount("drain-at=5", null, "drains", 0, 0)),
        faults.counts(),
        "0.01 of 57 appends never fires: the count must say so");
    faults.drained();
    assertEquals(1, faults.counts().get(3).fired());
  }

  @Test
  void badFaultsNameTheFix() {
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> Faults.parse(List.of("explode=1")))
            .getMessage()
            .contains("use unavailable=F, internal=F, overloaded=F, drop=F"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> Faults.parse(List.of("flush:unavailable=0.1")))
            .getMessage()
            .contains("'flush' is not an RPC: use append-rows, create-write-stream"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class, () -> Faults.parse(List.of("flush-rows:drop=0.1")))
            .getMessage()
            .contains("an RPC's fault is unavailable=F, internal=F or overloaded=F"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> Faults.parse(List.of("drop=2")))
            .getMessage()
            .contains("above 0 and at most 1"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> Faults.parse(List.of("discard=0")))
            .getMessage()
            .contains("leave the fault out for none"),
        "a fault that can never fire tests nothing");
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> Faults.parse(List.of("discard=0.1", "discard=0.2")))
            .getMessage()
            .contains("discard is given twice"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> Faults.parse(List.of("unavailable=0.1", "internal=0.1")))
            .getMessage()
            .contains("AppendRows already fails with unavailable"),
        "a second failure of one RPC would replace the first without a word");
    Faults.parse(List.of("unavailable=0.1", "flush-rows:internal=0.1", "drop=0.1"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> Faults.parse(List.of("drain-at=soon")))
            .getMessage()
            .contains("'soon' is not a number"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> Faults.parse(List.of("drain-after=2.5")))
            .getMessage()
            .contains("whole number of appends >= 1"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> Faults.parse(List.of("drain-after=0")))
            .getMessage()
            .contains("e.g. drain-after=10"));
  }

  @Test
  void aDrainIsATimeOrACountOfAppendsWhicheverCameLast() {
    Faults count = Faults.parse(List.of("drain-at=3", "drain-after=12"));
    assertEquals(12, count.drainAfterAppends());
    assertEquals(-1, count.drainAtSeconds());
    Faults time = Faults.parse(List.of("drain-after=12", "drain-at=3"));
    assertEquals(-1, time.drainAfterAppends());
    assertEquals(3, time.drainAtSeconds());
  }

  @Test
  void everyRpcCanFailWithItsOwnFractionAndStatus() {
    Faults faults =
        Faults.parse(
            List.of(
                "flush-rows:unavailable=0.5",
                "BatchCommitWriteStreams:internal=1",
                "create-write-stream:overloaded=1"));
    assertEquals(null, faults.failNow(Faults.Rpc.APPEND_ROWS), "appends are not affected");
    assertEquals(null, faults.failNow(Faults.Rpc.FLUSH_ROWS), "the first of two flushes passes");
    assertEquals(Status.Code.UNAVAILABLE, faults.failNow(Faults.Rpc.FLUSH_ROWS).code());
    assertEquals(
        Status.Code.INTERNAL, faults.failNow(Faults.Rpc.BATCH_COMMIT_WRITE_STREAMS).code());
    Faults.Failure overloaded = faults.failNow(Faults.Rpc.CREATE_WRITE_STREAM);
    assertEquals(Status.Code.UNAVAILABLE, overloaded.code());
    assertTrue(
        overloaded
            .message(Faults.Rpc.CREATE_WRITE_STREAM)
            .contains(
                "Request 'CreateWriteStream' throttled: Task is overloaded (memory-protection)"));
  }
}
