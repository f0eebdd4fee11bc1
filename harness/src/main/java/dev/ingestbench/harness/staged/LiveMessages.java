package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.source.EventSender;
import dev.ingestbench.harness.source.PacedPublisher;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * A scenario's live messages, published while its stages run by this JVM with the source's own
 * client (the {@link PacedPublisher}, as the max-rate search publishes): event indexes after the
 * backlog's, each at the time the rate means it to be sent. A publisher JVM running a Beam pipeline
 * took as much of the machine as the pipeline under test. Once every message has its reply, its
 * result is {@code publisher_live.json} (what the source acknowledged: what the jobs are verified
 * against); a publisher that could not hand every message to the client writes none, and the jobs
 * are then not verified.
 */
final class LiveMessages implements AutoCloseable {
  /**
   * How this JVM's CPU is named from the start of the live messages ({@code processes_cpu.csv}).
   */
  static final String PROCESS = "runner (publishes live)";

  private final String topic;
  private final long first;
  private final long count;
  private final int messageSize;
  private final double rate;
  private final Path result;
  private final PacedPublisher publisher;
  private final Instant started = Instant.now();

  /** Starts publishing the plan's live messages to its topic on {@code host}. */
  static LiveMessages start(
      ScenarioPlan plan, ScenarioSource source, String host, Path segment, ProcessCpuSampler cpu)
      throws IOException {
    cpu.watch(PROCESS, ProcessHandle.current().pid());
    return new LiveMessages(
        source.sender(host),
        new TaxiRideGenerator(
            LocalServices.EVENT_SEED,
            plan.messageSize(),
            MessageFormat.fromFlag("publish.message_format", plan.messageFormat())),
        plan.scenario().source().topic(),
        plan.messageSize(),
        plan.backlog(),
        plan.liveMessages(),
        plan.rate(),
        segment.resolve(RunFiles.PUBLISHER_LIVE));
  }

  /**
   * Sends indexes {@code first} .. {@code first + count - 1} of {@code messageSize} bytes at {@code
   * rate} through {@code sender}.
   */
  LiveMessages(
      EventSender sender,
      TaxiRideGenerator generator,
      String topic,
      int messageSize,
      long first,
      long count,
      double rate,
      Path result) {
    this.topic = topic;
    this.first = first;
    this.count = count;
    this.messageSize = messageSize;
    this.rate = rate;
    this.result = result;
    // A scenario measures its jobs' rates, not their latency against a schedule: no schedule goes
    // to the BigQuery emulator.
    this.publisher = new PacedPublisher(sender, generator, step -> {}, first, count);
    publisher.rate(rate);
  }

  /** Still sending, or waiting for replies, and nothing has failed. */
  boolean publishing() {
    return !publisher.finished() && publisher.failure() == null;
  }

  /**
   * Waits at most {@code max} for every message to be handed to the client and answered, then
   * stops; writes the result only then. Says what was not published, and why.
   */
  void finish(Duration max) throws Exception {
    long deadline = System.nanoTime() + max.toNanos();
    while (publishing() && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    boolean answered = publisher.finished();
    Exception failure = publisher.failure();
    publisher.stop(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    close();
    long published = publisher.acknowledged();
    if (!answered) {
      LocalTarget.say(
          "The live messages were not all published (%,d of %,d acknowledged%s): the jobs are"
              + " not verified against them",
          published,
          count,
          failure != null ? "; " + failure.getMessage() : " within " + max.toMinutes() + " min");
      return;
    }
    if (published < count) {
      LocalTarget.say(
          "%,d of the %,d live messages (indexes from %,d) failed to publish (%s): the jobs are"
              + " verified against the %,d the source acknowledged",
          count - published, count, first, failure == null ? "?" : failure.getMessage(), published);
    }
    RunJson.write(result, publisher.result(topic, messageSize, rate, started, null));
  }

  /** Stops sending and shuts the client down. */
  @Override
  public void close() throws Exception {
    publisher.close();
  }
}
