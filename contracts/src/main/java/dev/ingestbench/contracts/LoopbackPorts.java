package dev.ingestbench.contracts;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Ports for a local server that must be told its ports before it starts (a Kafka broker, a Flink
 * cluster: their clients and members are given them), rather than binding port 0 itself: a free
 * port is chosen first, and another process may bind it before the server does. {@link #start}
 * starts the server again on other ports when its failure says a port was taken.
 */
public final class LoopbackPorts {
  private LoopbackPorts() {}

  /** How often a start whose port another process took first is tried in all. */
  public static final int ATTEMPTS = 3;

  /** Chooses a port no process listens on (as far as it can tell). */
  @FunctionalInterface
  public interface Chooser {
    int choose() throws IOException;
  }

  /**
   * One start of the server on ports {@code ports} chooses; it cleans up after itself on failure.
   */
  @FunctionalInterface
  public interface Start<T> {
    T start(Chooser ports) throws IOException, InterruptedException;
  }

  /** A loopback port no process listens on now. */
  public static int free() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /**
   * {@code start}'s server, started again on other ports (up to {@link #ATTEMPTS} in all) when its
   * failure's message holds one of {@code portTaken}; any other failure, and the last, is thrown at
   * once, with the earlier attempts' failures suppressed in it.
   */
  public static <T> T start(Chooser ports, List<String> portTaken, Start<T> start)
      throws IOException, InterruptedException {
    List<IOException> earlier = new ArrayList<>();
    for (int attempt = 1; ; attempt++) {
      try {
        return start.start(ports);
      } catch (IOException e) {
        String message = String.valueOf(e.getMessage());
        if (attempt == ATTEMPTS || portTaken.stream().noneMatch(message::contains)) {
          earlier.forEach(e::addSuppressed);
          throw e;
        }
        earlier.add(e);
      }
    }
  }
}
