package dev.ingestbench.harness.process;

import java.io.IOException;
import java.util.List;

/**
 * Starts a child process from its command line, its standard error merged into its output: the
 * operating system's ({@link #SYSTEM}), or a test's scripted process, so that what starts, stops
 * and kills children can be tested without starting JVMs.
 */
@FunctionalInterface
public interface ProcessLauncher {
  Process launch(List<String> command) throws IOException;

  /** The operating system's processes. */
  ProcessLauncher SYSTEM = command -> new ProcessBuilder(command).redirectErrorStream(true).start();
}
