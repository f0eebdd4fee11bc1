package dev.ingestbench.pubsub;

import com.google.api.core.ApiFutureCallback;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Counts what Pub/Sub said of every message handed to a publisher client: acknowledged, failed, and
 * the first failure (every publish future gets this callback once, on the client's threads).
 */
public final class PublishOutcomes implements ApiFutureCallback<String> {
  private final AtomicLong acknowledged = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();

  @Override
  public void onSuccess(String messageId) {
    acknowledged.incrementAndGet();
  }

  @Override
  public void onFailure(Throwable t) {
    failed.incrementAndGet();
    firstFailure.compareAndSet(null, t);
  }

  public long acknowledged() {
    return acknowledged.get();
  }

  public long failed() {
    return failed.get();
  }

  /** The first failure, or null. */
  public Throwable firstFailure() {
    return firstFailure.get();
  }

  /** Every one of {@code handed} messages has its reply. */
  public boolean allAnswered(long handed) {
    return acknowledged.get() + failed.get() >= handed;
  }
}
