package dev.ingestbench.consumer.local;

import dev.ingestbench.contracts.StopMode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Notices when standard input closes: how the process that started a consumer asks it to stop
 * cleanly (write its results, delete its checkpoints) rather than killing it. A line naming a
 * {@link StopMode} before the end ({@code savepoint}) chooses how, per stop: a scenario's stage
 * decides it, not the consumer's start.
 */
final class StdinEof {
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicReference<StopMode> mode = new AtomicReference<>();

  private StdinEof() {}

  static StdinEof watch() {
    StdinEof eof = new StdinEof();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  // Any other text is ignored; only the end and the last mode named matter.
                  StopMode.of(line.strip()).ifPresent(eof.mode::set);
                }
              } catch (IOException e) {
                // A broken pipe means the parent is gone: stop as well.
              }
              eof.closed.set(true);
            },
            "stdin-eof");
    reader.setDaemon(true);
    reader.start();
    return eof;
  }

  boolean happened() {
    return closed.get();
  }

  /** The stop mode named on standard input before it closed, if any. */
  Optional<StopMode> mode() {
    return Optional.ofNullable(mode.get());
  }
}
