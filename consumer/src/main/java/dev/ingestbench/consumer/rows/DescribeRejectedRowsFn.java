package dev.ingestbench.consumer.rows;

import com.google.api.services.bigquery.model.TableRow;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryStorageApiInsertError;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;

/** A row the Storage Write API path rejected, as a dead-letter row; counted in Beam metrics. */
public class DescribeRejectedRowsFn extends DoFn<BigQueryStorageApiInsertError, TableRow> {
  private final Counter rejected = Metrics.counter("consumer", "rows_rejected");

  @ProcessElement
  public void processElement(
      @Element BigQueryStorageApiInsertError error, OutputReceiver<TableRow> out) {
    rejected.inc();
    out.output(
        DeadLetters.forRejectedRow(
            error.getRow(), error.getErrorMessage(), System.currentTimeMillis() * 1_000L));
  }
}
