package dev.ingestbench.cli;

import java.util.List;
import java.util.Stack;
import picocli.CommandLine.IParameterConsumer;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Takes an option's value as it is, even when it starts like an option of the command itself:
 * {@code --consumer-arg=--parallelism=1} passes Beam's {@code --parallelism} to an embedded Flink
 * consumer, where picocli would otherwise see {@code round}'s own {@code --parallelism} (a Flink
 * cluster's) and refuse the value.
 */
final class VerbatimValue implements IParameterConsumer {
  @Override
  public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
    if (args.isEmpty()) {
      throw new ParameterException(
          commandSpec.commandLine(),
          "--consumer-arg needs a Beam flag: give it as --consumer-arg=--FLAG=VALUE");
    }
    List<String> values = argSpec.getValue();
    values.add(args.pop());
  }
}
