package dev.ingestbench.emulator;

/** Starts an emulator and keeps it running until interrupted; prints the variable clients need. */
public final class EmulatorMain {
  private EmulatorMain() {}

  public static void main(String[] args) throws Exception {
    try (PubsubEmulator emulator = PubsubEmulator.start()) {
      System.out.println("export PUBSUB_EMULATOR_HOST=" + emulator.hostAndPort());
      System.out.flush();
      Runtime.getRuntime().addShutdownHook(new Thread(emulator::close));
      emulator.waitFor();
    }
  }
}
