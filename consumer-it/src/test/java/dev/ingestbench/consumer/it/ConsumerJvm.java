package dev.ingestbench.consumer.it;

import dev.ingestbench.consumer.local.LocalConsumer;
import dev.ingestbench.contracts.ChildJavaOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Test helper: the command that runs {@link LocalConsumer} in a JVM of its own, with the options a
 * round gives every process it starts ({@link ChildJavaOptions}, and the parallel collector), for
 * what only another process can show.
 */
public final class ConsumerJvm {
  private ConsumerJvm() {}

  public static List<String> command(String heap, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + heap);
    command.add("-XX:+UseParallelGC");
    command.addAll(ChildJavaOptions.fromEnvironment());
    command.addAll(
        List.of("-cp", System.getProperty("java.class.path"), LocalConsumer.class.getName()));
    command.addAll(List.of(args));
    return command;
  }
}
