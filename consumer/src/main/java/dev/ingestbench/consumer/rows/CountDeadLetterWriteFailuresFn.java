package dev.ingestbench.consumer.rows;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryStorageApiInsertError;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A dead letter the dead-letter table refused: the message is then neither written nor kept, so it
 * is counted (Beam metric {@code consumer/dead_letter_write_failures}) and logged with the reason
 * instead of vanishing with Beam's discarded failed-rows output.
 */
public class CountDeadLetterWriteFailuresFn extends DoFn<BigQueryStorageApiInsertError, Void> {
  private static final Logger LOG = LoggerFactory.getLogger(CountDeadLetterWriteFailuresFn.class);

  /**
   * The same count for a local run, whose runner (embedded Flink) executes this DoFn in the run's
   * own JVM: it is read into {@code consumer_result.json} when the run stops, where Beam's metrics
   * of a cancelled streaming job cannot be queried.
   */
  private static final AtomicLong IN_THIS_JVM = new AtomicLong();

  private final Counter failures = Metrics.counter("consumer", "dead_letter_write_failures");

  @ProcessElement
  public void processElement(@Element BigQueryStorageApiInsertError error) {
    failures.inc();
    long n = IN_THIS_JVM.incrementAndGet();
    if (n <= 10 || Long.bitCount(n) == 1) {
      LOG.error(
          "Dead letter #{} could not be written to the dead-letter table ({}); its message is lost to the"
              + " run: {}",
          n,
          error.getErrorMessage(),
          error.getRow());
    }
  }

  /** Failures counted in this JVM since it started. */
  public static long inThisJvm() {
    return IN_THIS_JVM.get();
  }
}
