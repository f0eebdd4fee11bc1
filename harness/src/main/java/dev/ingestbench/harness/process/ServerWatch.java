package dev.ingestbench.harness.process;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Watches the servers a round or a scenario run depends on (Pub/Sub emulator or Kafka broker,
 * BigQuery emulator, a Flink cluster's JobManager). When one dies, the run cannot go on: the watch
 * stops every process it was told about at once, so nothing waits for its timeout, and keeps a
 * message naming the server, how it ended and its last output lines for the error the run ends
 * with.
 */
public final class ServerWatch implements AutoCloseable {
  private static final long POLL_MILLIS = 500;

  /** A server: its name, whether it still runs, and what it said last (how it ended). */
  public record Server(String name, BooleanSupplier alive, Supplier<String> lastWords) {}

  private final List<Server> servers = new CopyOnWriteArrayList<>();
  private final List<ChildJvm> dependents = new CopyOnWriteArrayList<>();
  private final AtomicReference<String> death = new AtomicReference<>();
  private final Thread thread;
  private volatile boolean closed;

  /** What the servers serve, as its log lines name it: {@code round} or {@code run}. */
  private final String what;

  /** A watch for a {@code what} ({@code round}, {@code run}), as death messages name it. */
  public ServerWatch(String what) {
    this.what = what;
    thread = new Thread(this::watch, "server-watch");
    thread.setDaemon(true);
    thread.start();
  }

  public void watch(Server server) {
    servers.add(server);
  }

  /** A process to stop if a server dies. */
  public void stopOnDeath(ChildJvm child) {
    dependents.add(child);
  }

  /** Why the round or run cannot go on, once a server has died. */
  public Optional<String> death() {
    return Optional.ofNullable(death.get());
  }

  private void watch() {
    try {
      while (death.get() == null) {
        Thread.sleep(POLL_MILLIS);
        for (Server server : servers) {
          if (!server.alive().getAsBoolean() && !closed && !ChildJvm.jvmIsExiting()) {
            String last = server.lastWords().get();
            death.set(
                "the "
                    + server.name()
                    + " died during the "
                    + what
                    + ", so it cannot finish"
                    + (last == null || last.isBlank()
                        ? " (it printed nothing)"
                        : "; its last output:"
                            + System.lineSeparator()
                            + last.indent(2).stripTrailing()));
            System.out.println("[" + what + "] The " + server.name() + " died: stopping every job");
            dependents.forEach(ChildJvm::close);
            return;
          }
        }
      }
    } catch (InterruptedException stopped) {
      // closed
    }
  }

  /** Stops watching: call before stopping the servers, which is not a death. */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    try {
      thread.join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
