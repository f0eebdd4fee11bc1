package dev.ingestbench.consumer.local;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * SIGTERM or Ctrl-C taken as a request to stop, like the end of standard input: the JVM's shutdown
 * waits (up to {@link #GRACE_SECONDS}) while the run stops its pipeline, writes its partial results
 * and removes its checkpoints, instead of exiting with the verification only in memory.
 */
public final class StopSignal implements AutoCloseable {
  /** Below the 10 s a round gives a child between SIGTERM and SIGKILL. */
  static final long GRACE_SECONDS = 8;

  private final CountDownLatch finished = new CountDownLatch(1);
  private final Thread hook;
  private volatile boolean requested;

  private StopSignal() {
    hook =
        new Thread(
            () -> {
              requested = true;
              try {
                finished.await(GRACE_SECONDS, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "consumer-stop-signal");
  }

  public static StopSignal install() {
    StopSignal signal = new StopSignal();
    Runtime.getRuntime().addShutdownHook(signal.hook);
    return signal;
  }

  /** True once the process has been asked to stop. */
  boolean requested() {
    return requested;
  }

  /** The run has written what it could: the JVM may exit. */
  @Override
  public void close() {
    finished.countDown();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running and now returns
    }
  }
}
