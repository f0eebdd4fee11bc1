package dev.ingestbench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Test helper: the TCP sockets processes listen on, read from {@code /proc} (each process's socket
 * inodes, matched with the listening entries of {@code /proc/net/tcp} and {@code tcp6}).
 */
final class ListeningSockets {
  /** One listening socket: its owner, and the local address as the kernel gives it (hex). */
  record Socket(long pid, String command, String hexAddress, int port) {
    /** 0.0.0.0 or :: : every interface of the machine. */
    boolean wildcard() {
      return hexAddress.chars().allMatch(c -> c == '0');
    }

    @Override
    public String toString() {
      return command
          + " (pid "
          + pid
          + ") on "
          + (wildcard() ? "the wildcard address" : hexAddress)
          + ":"
          + port;
    }
  }

  private ListeningSockets() {}

  static boolean supported() {
    return Files.isReadable(Path.of("/proc/net/tcp"));
  }

  static List<Socket> of(List<ProcessHandle> processes) throws IOException {
    Map<String, String[]> listening = new HashMap<>(); // inode -> {hex address, hex port}
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path file = Path.of(table);
      if (!Files.isReadable(file)) {
        continue;
      }
      // Read once: the table changes under a second read as sockets open and close.
      List<String> lines = Files.readAllLines(file);
      for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 9 && f[3].equals("0A")) { // TCP_LISTEN
          String[] local = f[1].split(":");
          listening.put(f[9], local);
        }
      }
    }
    List<Socket> sockets = new ArrayList<>();
    for (ProcessHandle process : processes) {
      Path fds = Path.of("/proc", Long.toString(process.pid()), "fd");
      List<Path> entries;
      try (Stream<Path> list = Files.list(fds)) {
        entries = list.toList();
      } catch (IOException gone) {
        continue; // exited meanwhile
      }
      for (Path fd : entries) {
        String target;
        try {
          target = Files.readSymbolicLink(fd).toString();
        } catch (IOException gone) {
          continue;
        }
        if (target.startsWith("socket:[")) {
          String[] local = listening.get(target.substring(8, target.length() - 1));
          if (local != null) {
            sockets.add(
                new Socket(
                    process.pid(),
                    process.info().command().orElse("?"),
                    local[0],
                    Integer.parseInt(local[1], 16)));
          }
        }
      }
    }
    return sockets;
  }
}
