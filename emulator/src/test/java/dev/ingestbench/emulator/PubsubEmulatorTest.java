package dev.ingestbench.emulator;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.Socket;
import org.junit.jupiter.api.Test;

class PubsubEmulatorTest {

  @Test
  void startsOnALoopbackPortThatAcceptsConnectionsAndStopsOnClose() throws Exception {
    PubsubEmulator emulator = PubsubEmulator.start();
    String[] hostPort = emulator.hostAndPort().split(":");
    assertTrue(hostPort[0].equals("127.0.0.1"), emulator.hostAndPort());
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])), 2_000);
      assertTrue(socket.isConnected());
    }
    emulator.close();
    assertFalse(emulator.isAlive());
  }
}
