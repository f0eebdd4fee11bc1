package dev.ingestbench.pubsubload;

import com.google.pubsub.v1.PubsubMessage;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The harness's own CPU cost per message, measured by running exactly its per-message work with no
 * client behind it: building the message with its attributes and the bookkeeping of an acknowledged
 * publish (latency histogram, counters, sequence bit) on the publisher side; parsing the attributes
 * and the same bookkeeping on the subscriber side. Multiplied by the rates a test reached and
 * divided by the process's CPU, it says whether the harness or the client saturated first.
 *
 * @param publishNanos CPU nanoseconds of harness work per published message
 * @param subscribeNanos CPU nanoseconds of harness work per received message
 */
record HarnessOverhead(double publishNanos, double subscribeNanos) {
  private static final int WARM_UP = 200_000;
  private static final int MEASURED = 500_000;

  static HarnessOverhead measure(int messageSizeBytes) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    LoadMessages messages = new LoadMessages(messageSizeBytes, "harness");
    LoadCounters scratch = new LoadCounters("harness");
    PubsubMessage[] kept = new PubsubMessage[1024];
    for (int i = 0; i < WARM_UP; i++) {
      kept[i & 1023] = publishSide(messages, scratch, i);
      subscribeSide(kept[i & 1023], scratch);
    }
    long base = WARM_UP;
    long t0 = threads.getCurrentThreadCpuTime();
    for (int i = 0; i < MEASURED; i++) {
      kept[i & 1023] = publishSide(messages, scratch, base + i);
    }
    long t1 = threads.getCurrentThreadCpuTime();
    for (int i = 0; i < MEASURED; i++) {
      subscribeSide(kept[i & 1023], scratch);
    }
    long t2 = threads.getCurrentThreadCpuTime();
    return new HarnessOverhead((t1 - t0) / (double) MEASURED, (t2 - t1) / (double) MEASURED);
  }

  /** What {@link PublisherLoad} does per message besides calling the client. */
  private static PubsubMessage publishSide(LoadMessages messages, LoadCounters c, long seq) {
    PubsubMessage m = messages.message(seq);
    long started = System.nanoTime();
    c.published.increment();
    c.publishLatency.recordValue(Math.max(1, (System.nanoTime() - started) / 1_000));
    c.acked.increment();
    c.ackedBytes.add(messages.sizeBytes());
    c.ackedSequences.mark(seq);
    return m;
  }

  /** What {@link SubscriberLoad} does per message besides the client's receive and ack. */
  private static void subscribeSide(PubsubMessage m, LoadCounters c) {
    c.received.increment();
    c.receivedBytes.add(m.getData().size());
    long seq = LoadMessages.sequenceOf(m, c.run);
    c.receivedSequences.mark(seq);
    long micros = LoadMessages.endToEndMicros(m);
    c.endToEndLatency.recordValue(Math.max(1, micros));
  }

  /** The harness's share of the process's CPU at these rates (messages per second). */
  double shareOf(double processCpuCores, double publishedPerSecond, double receivedPerSecond) {
    if (processCpuCores <= 0) {
      return Double.NaN;
    }
    double harnessCores =
        (publishNanos * publishedPerSecond + subscribeNanos * receivedPerSecond) / 1e9;
    return harnessCores / processCpuCores;
  }
}
