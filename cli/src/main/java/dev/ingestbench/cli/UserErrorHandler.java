package dev.ingestbench.cli;

import picocli.CommandLine;

/**
 * Bad input and failed rounds end with one clear line and a meaningful exit code, not a stack trace;
 * {@code INGESTBENCH_DEBUG=1} shows the trace when it is wanted.
 */
final class UserErrorHandler implements CommandLine.IExecutionExceptionHandler {
  /** Exit code for invalid flags or input files. */
  static final int USAGE = 2;
  /** Exit code for a run that could not be carried out (I/O, a child process failed). */
  static final int FAILED = 3;

  @Override
  public int handleExecutionException(
      Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult) {
    String name = commandLine.getCommandName();
    commandLine.getErr().println(name + ": " + e.getMessage());
    if (System.getenv("INGESTBENCH_DEBUG") != null) {
      e.printStackTrace(commandLine.getErr());
    }
    return e instanceof IllegalArgumentException ? USAGE : FAILED;
  }
}
