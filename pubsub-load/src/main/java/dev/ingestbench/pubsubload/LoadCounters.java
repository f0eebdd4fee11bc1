package dev.ingestbench.pubsubload;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * What both sides count while a load test runs. Latencies go into HDR histograms (microseconds, 3
 * significant digits), never a list; a {@link Recorder} lets the sampler take each second's
 * interval histogram while the clients keep recording.
 */
final class LoadCounters {
  /** This test's id, carried by every message it publishes; null when it only subscribes. */
  final String run;

  LoadCounters(String run) {
    this.run = run;
  }

  /** Handed to {@code Publisher.publish}. */
  final LongAdder published = new LongAdder();

  /** Publish futures that succeeded (the service acknowledged the message). */
  final LongAdder acked = new LongAdder();

  final LongAdder ackedBytes = new LongAdder();

  /** Publish futures that failed. */
  final LongAdder errors = new LongAdder();

  final LongAdder received = new LongAdder();
  final LongAdder receivedBytes = new LongAdder();

  /** Subscriber-side failures (a pull or ack call that threw). */
  final LongAdder subscriberErrors = new LongAdder();

  /** Received messages without this tool's sequence attribute (someone else's). */
  final LongAdder foreign = new LongAdder();

  /** publish() to its future completing, in microseconds. */
  final Recorder publishLatency = new Recorder(3);

  /** Publish time (attribute) to receipt, in microseconds: needs both sides' clocks to agree. */
  final Recorder endToEndLatency = new Recorder(3);

  final SequenceTracker ackedSequences = new SequenceTracker();
  final SequenceTracker receivedSequences = new SequenceTracker();

  /** System.nanoTime() of the last publish future to complete (a grid trial ends there). */
  final AtomicLong lastCompletionNanos = new AtomicLong();

  volatile Throwable firstPublishError;
  volatile Throwable firstSubscriberError;
}
