package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.harness.process.ProcessCpuSampler;
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
 * took as much of the machine as the pipeline under test; the client costs a few percent of a core.
 * Its result, once every message is acknowledged, is {@code publisher_live.json}, what the jobs are
 * verified against; a publisher that could not finish writes none, and the jobs are then not
 * verified.
 */
final class LiveMessages implements AutoCloseable {
  /** How this JVM's CPU is named while it publishes ({@code processes_cpu.csv}). */
  static final String PROCESS = "runner (publishes live)";

  private final ScenarioPlan plan;
  private final Path result;
  private final PacedPublisher publisher;
  private final Instant started = Instant.now();
  private final long startedNanos = System.nanoTime();

  /** Starts publishing to the scenario's topic on {@code host}. */
  LiveMessages(
      ScenarioPlan plan, ScenarioSource source, String host, Path segment, ProcessCpuSampler cpu)
      throws IOException {
    this.plan = plan;
    this.result = segment.resolve(RunFiles.PUBLISHER_LIVE);
    this.publisher =
        new PacedPublisher(
            source.sender(host),
            new TaxiRideGenerator(
                LocalServices.EVENT_SEED,
                plan.messageSize(),
                MessageFormat.fromFlag("publish.message_format", plan.messageFormat())),
            step -> {}, // a scenario measures its jobs' rates, not latency against a schedule
            plan.backlog(),
            plan.liveMessages());
    cpu.watch(PROCESS, ProcessHandle.current().pid());
    publisher.rate(plan.rate());
  }

  /** Still sending, or waiting for replies, and nothing has failed. */
  boolean publishing() {
    return !publisher.finished() && publisher.failure() == null;
  }

  /**
   * Waits at most {@code max} for every message to be sent and acknowledged, then stops; writes the
   * result only when every one was. Says why when one was not.
   */
  void finish(Duration max) throws Exception {
    long deadline = System.nanoTime() + max.toNanos();
    while (publishing() && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    boolean all = publisher.finished();
    Exception failure = publisher.failure();
    long seconds = (System.nanoTime() - startedNanos) / 1_000_000_000L;
    close();
    if (!all) {
      LocalTarget.say(
          "The live messages were not all published (%,d of %,d acknowledged%s): the jobs are"
              + " not verified against them",
          publisher.acknowledged(),
          plan.liveMessages(),
          failure != null ? "; " + failure.getMessage() : " within " + max.toMinutes() + " min");
      return;
    }
    long published = publisher.acknowledged();
    RunJson.write(
        result,
        new PublisherResult(
            plan.scenario().source().topic(),
            plan.liveMessages(),
            published,
            0,
            published * plan.messageSize(),
            plan.messageSize(),
            plan.rate(),
            started.toString(),
            seconds,
            seconds == 0 ? published : published / (double) seconds,
            1,
            null));
  }

  /** Stops sending and shuts the client down. */
  @Override
  public void close() throws Exception {
    publisher.close();
  }
}
