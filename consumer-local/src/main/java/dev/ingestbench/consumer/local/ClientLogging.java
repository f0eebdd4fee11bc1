package dev.ingestbench.consumer.local;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The Storage Write API client logs every connection it opens and closes at INFO through
 * java.util.logging. On Dataflow that lands in worker logs; in a local run it would drown the
 * progress lines, so local runs keep its warnings only.
 */
public final class ClientLogging {
  /** Held: java.util.logging keeps loggers weakly, and a collected logger forgets its level. */
  private static final Logger STORAGE_CLIENT =
      Logger.getLogger("com.google.cloud.bigquery.storage");

  private ClientLogging() {}

  public static void quietForLocalRuns() {
    STORAGE_CLIENT.setLevel(Level.WARNING);
  }
}
