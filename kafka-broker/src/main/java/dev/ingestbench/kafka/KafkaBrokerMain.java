package dev.ingestbench.kafka;

import java.io.IOException;
import java.io.InputStream;

/**
 * The broker JVM's main: formats the log directory for a new single-node KRaft cluster (as {@code
 * kafka-storage.sh format} does), then runs Kafka's own server main on the given properties. It
 * exits (Kafka's shutdown hook stopping the server cleanly) when its standard input closes, so a
 * broker never outlives the process that started it, whatever way that one ended.
 */
public final class KafkaBrokerMain {
  private KafkaBrokerMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println(
          "usage: KafkaBrokerMain SERVER_PROPERTIES CLUSTER_ID (LocalKafka writes and chooses them)");
      System.exit(2);
    }
    String properties = args[0];
    String clusterId = args[1];
    int formatted =
        kafka.tools.StorageTool.execute(
            new String[] {"format", "-t", clusterId, "-c", properties, "--ignore-formatted"},
            System.out);
    if (formatted != 0) {
      System.err.println("formatting the broker's log directory failed (exit " + formatted + ")");
      System.exit(formatted);
    }
    Thread watcher = new Thread(KafkaBrokerMain::exitWhenStdinCloses, "stdin-eof");
    watcher.setDaemon(true);
    watcher.start();
    kafka.Kafka.main(new String[] {properties});
  }

  private static void exitWhenStdinCloses() {
    try {
      InputStream in = System.in;
      while (in.read() >= 0) {
        // nothing is sent; only the end matters
      }
    } catch (IOException e) {
      // a broken pipe is an end as well
    }
    System.exit(0);
  }
}
