package dev.ingestbench.consumer.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ingestbench.contracts.job.WriteMethod;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;
import org.junit.jupiter.api.Test;

/** Each write method names the Beam method that writes that way (WriteRows looks it up by name). */
class BeamWriteMethodTest {
  @Test
  void eachWriteMethodIsTheBeamMethodOfItsSemantics() {
    assertEquals(
        BigQueryIO.Write.Method.STORAGE_WRITE_API,
        BigQueryIO.Write.Method.valueOf(WriteMethod.EXACTLY_ONCE.beamName()));
    assertEquals(
        BigQueryIO.Write.Method.STORAGE_API_AT_LEAST_ONCE,
        BigQueryIO.Write.Method.valueOf(WriteMethod.AT_LEAST_ONCE.beamName()));
  }
}
