package dev.ingestbench.harness.process;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a run has started (servers, processes, samplers), closed newest first: each is closed even
 * when an earlier close failed, and the first failure is thrown with the others suppressed.
 */
public final class StartedResources implements AutoCloseable {
  private final Deque<AutoCloseable> started = new ArrayDeque<>();

  /** Keeps {@code resource} to be closed before everything kept earlier; returns it. */
  public <T extends AutoCloseable> T keep(T resource) {
    started.push(resource);
    return resource;
  }

  /**
   * Closes {@code resource}, whose start failed with {@code failure}: a failure to close it is kept
   * in {@code failure} as suppressed, so that it never hides why the start failed.
   */
  public static void closeAfter(Throwable failure, AutoCloseable resource) {
    try {
      resource.close();
    } catch (Exception suppressed) {
      failure.addSuppressed(suppressed);
    }
  }

  @Override
  public void close() throws Exception {
    Exception first = null;
    while (!started.isEmpty()) {
      try {
        started.pop().close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
