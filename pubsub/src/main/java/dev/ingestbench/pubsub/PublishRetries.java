package dev.ingestbench.pubsub;

import com.google.api.gax.retrying.RetrySettings;
import java.time.Duration;

/**
 * How every publisher of the project retries: each attempt may take the whole budget, so a slow
 * server is waited for instead of given up on and sent the same request again.
 *
 * <p>The client's default gives an attempt 5 s, then resends the request on DEADLINE_EXCEEDED. A
 * server that was only slow stores both: pstest, which holds one lock while a Pull scans its
 * messages, stores the abandoned attempt under new message ids, so one event reaches the pipeline
 * as two messages and an exactly-once sink rightly writes both. Here a timed-out attempt has used
 * the whole budget and is never resent (the publish fails instead, which the publisher reports); a
 * failure that comes back at once (UNAVAILABLE: nothing was stored) is still retried.
 */
public final class PublishRetries {
  /** Longer than any pause of a loaded emulator or of Pub/Sub; a stuck server fails after it. */
  public static final Duration BUDGET = Duration.ofMinutes(5);

  private PublishRetries() {}

  /** The retry settings to give every {@code Publisher.Builder}. */
  public static RetrySettings publishOnce() {
    return RetrySettings.newBuilder()
        .setInitialRpcTimeoutDuration(BUDGET)
        .setMaxRpcTimeoutDuration(BUDGET)
        .setRpcTimeoutMultiplier(1.0)
        .setTotalTimeoutDuration(BUDGET)
        .setInitialRetryDelayDuration(Duration.ofMillis(100))
        .setRetryDelayMultiplier(2.0)
        .setMaxRetryDelayDuration(Duration.ofSeconds(5))
        .build();
  }
}
