package dev.ingestbench.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Tag("e2e")
// A long timeout: the first start may build pstest with go, which may take up to 10 minutes.
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class PubsubEmulatorTest {

  @Test
  void startsOnALoopbackPortThatAcceptsConnectionsAndReleasesItOnClose() throws Exception {
    PubsubEmulator emulator = PubsubEmulator.start();
    String[] hostPort = emulator.hostAndPort().split(":");
    assertEquals("127.0.0.1", hostPort[0], emulator.hostAndPort());
    InetSocketAddress address = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
    assertTrue(emulator.isAlive());
    try (Socket socket = new Socket()) {
      socket.connect(address, 2_000); // throws unless the emulator listens
    }
    emulator.close();
    assertFalse(emulator.isAlive());
    assertThrows(
        IOException.class,
        () -> {
          try (Socket socket = new Socket()) {
            socket.connect(address, 2_000);
          }
        },
        "the port is released once the emulator is stopped");
  }
}
