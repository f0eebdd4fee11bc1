package dev.ingestbench.cli;

import dev.ingestbench.contracts.MainErrors;
import picocli.CommandLine;

/**
 * Bad input and failed rounds end with one clear line and a meaningful exit code, not a stack
 * trace; {@code INGESTBENCH_DEBUG=1} shows the trace when it is wanted. The pipeline mains end the
 * same way ({@link MainErrors}).
 */
final class UserErrorHandler implements CommandLine.IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(
      Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult) {
    return MainErrors.report(commandLine.getCommandName(), e, commandLine.getErr());
  }
}
