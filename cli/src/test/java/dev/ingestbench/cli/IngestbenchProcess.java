package dev.ingestbench.cli;

import dev.ingestbench.contracts.ChildJavaOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Test helper: {@code ingestbench ARGS} in a JVM of its own on the tests' classpath, its output in
 * {@code log}: for what only another process can show (signals, SIGKILL, the processes it starts).
 */
public final class IngestbenchProcess {
  private IngestbenchProcess() {}

  public static Process start(Path log, String... args) throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-XX:+UseParallelGC"));
    // The JVM options of the processes a round starts (the tests give C1 only): the savepoint
    // scenario's run took 13.1 CPU-s in this JVM with the default compilers, 7.2 with C1 alone.
    command.addAll(ChildJavaOptions.fromEnvironment());
    command.addAll(
        List.of("-cp", System.getProperty("java.class.path"), IngestbenchCommand.class.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }
}
