package dev.ingestbench.consumer.local;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Notices when standard input closes: how the process that started a consumer asks it to stop
 * cleanly (write its results, delete its checkpoints) rather than killing it.
 */
final class StdinEof {
  private final AtomicBoolean closed = new AtomicBoolean();

  private StdinEof() {}

  static StdinEof watch() {
    StdinEof eof = new StdinEof();
    Thread reader =
        new Thread(
            () -> {
              InputStream in = System.in;
              byte[] buffer = new byte[256];
              try {
                while (in.read(buffer) >= 0) {
                  // Anything written is ignored; only the end matters.
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
}
