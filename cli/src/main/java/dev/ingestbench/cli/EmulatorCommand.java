package dev.ingestbench.cli;

import dev.ingestbench.emulator.PubsubEmulator;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Starts a local Pub/Sub emulator and keeps it running until interrupted. */
@Command(
    name = "emulator",
    mixinStandardHelpOptions = true,
    description = {
      "Start the local Pub/Sub emulator (Google's pstest, built on first use) on a free loopback port.",
      "Prints the PUBSUB_EMULATOR_HOST value for other commands; Ctrl-C stops it."
    })
final class EmulatorCommand implements Callable<Integer> {
  @Override
  public Integer call() throws Exception {
    try (PubsubEmulator emulator = PubsubEmulator.start()) {
      System.out.println("export PUBSUB_EMULATOR_HOST=" + emulator.hostAndPort());
      System.out.flush();
      Runtime.getRuntime().addShutdownHook(new Thread(emulator::close));
      return emulator.waitFor();
    }
  }
}
