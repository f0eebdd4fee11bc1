package dev.ingestbench.harness.stack;

import dev.ingestbench.contracts.ProcessCpuColumns;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.emulator.PubsubEmulator;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.process.ServerWatch;
import dev.ingestbench.kafka.LocalKafka;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The source server of a local run, started the same way for a round and a scenario: the Pub/Sub
 * emulator (pstest) or a Kafka broker (KRaft, its own JVM) with the run's topic. Its CPU is
 * recorded under one process name, and its death ends the run through the {@link ServerWatch}.
 *
 * @param host {@code HOST:PORT}: the emulator's address, or the broker's bootstrap servers
 * @param pid the server's process id
 * @param server what stops it
 */
public record LocalSource(String host, long pid, AutoCloseable server) implements AutoCloseable {

  /**
   * Starts a run's source server, its files in {@code dir}, watched by {@code watch} and sampled by
   * {@code cpu}: which one is the run's source's to say.
   */
  public interface Starter {
    LocalSource start(Path dir, ProcessCpuSampler cpu, ServerWatch watch, Consumer<String> say)
        throws IOException, InterruptedException;

    /** {@code --dry-run}'s step that starts it, the address it gives as a placeholder. */
    String startStep();
  }

  /**
   * Starts the Pub/Sub emulator, watched and sampled; topics and subscriptions are the caller's.
   */
  public static LocalSource pubsub(ProcessCpuSampler cpu, ServerWatch watch, Consumer<String> say)
      throws IOException {
    PubsubEmulator emulator = PubsubEmulator.start();
    try {
      say.accept("Pub/Sub emulator on " + emulator.hostAndPort());
      cpu.watch(ProcessCpuColumns.PUBSUB_EMULATOR, emulator.pid());
      watch.watch(
          new ServerWatch.Server(
              "Pub/Sub emulator",
              emulator::isAlive,
              () ->
                  "(pstest prints to this console; it exited with code "
                      + emulator.exitCode()
                      + ")"));
    } catch (RuntimeException e) {
      emulator.close();
      throw e;
    }
    return new LocalSource(emulator.hostAndPort(), emulator.pid(), emulator);
  }

  /**
   * Starts a Kafka broker keeping its data and log in {@code dir}, with {@code topic} of {@code
   * partitions} partitions; watched and sampled.
   */
  public static LocalSource kafka(
      Path dir,
      String topic,
      int partitions,
      ProcessCpuSampler cpu,
      ServerWatch watch,
      Consumer<String> say)
      throws IOException, InterruptedException {
    LocalKafka kafka =
        LocalKafka.start(
            dir.resolve(RunFiles.KAFKA_DATA), dir.resolve("kafka.log"), partitions, "1g");
    try {
      kafka.createTopic(topic, partitions);
      say.accept(
          String.format(
              Locale.ROOT,
              "Kafka %s broker (KRaft) on %s: topic %s with %d partitions",
              LocalKafka.version(),
              kafka.bootstrapServers(),
              topic,
              partitions));
      cpu.watch(ProcessCpuColumns.KAFKA_BROKER, kafka.pid());
      watch.watch(new ServerWatch.Server("Kafka broker", kafka::isAlive, kafka::lastLines));
    } catch (IOException | InterruptedException | RuntimeException e) {
      kafka.close();
      throw e;
    }
    return new LocalSource(kafka.bootstrapServers(), kafka.pid(), kafka);
  }

  /** Stops the server. */
  @Override
  public void close() throws Exception {
    server.close();
  }
}
