package dev.ingestbench.harness.staged;

import dev.ingestbench.bigquery.BigQueryEmulatorCommand;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.harness.source.LiveMessages;
import dev.ingestbench.harness.spec.ChildFlags;
import dev.ingestbench.harness.spec.ScenarioLimits;
import dev.ingestbench.publisher.PublishSettings;
import dev.ingestbench.publisher.PublisherPipeline;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The flags of the shared processes of a local scenario: the BigQuery emulator (with the scenario's
 * limits) and the publisher of the backlog (the live messages are this JVM's: {@link
 * LiveMessages}). Checked by each process's own validation when built, so a bad scenario fails
 * before anything starts.
 */
final class LocalServices {
  private static final String UNSTARTED_HOST = "127.0.0.1:1";

  /**
   * The seed a scenario's events are generated with (its publishers' default {@code --seed}, and
   * the feeds'): the BigQuery emulator checks every row's content against it.
   */
  static final long EVENT_SEED = 1;

  private final ScenarioPlan plan;
  private final ScenarioSource source;

  LocalServices(ScenarioPlan plan, ScenarioSource source) {
    this.plan = plan;
    this.source = source;
    Path unstarted = Path.of("unstarted");
    check("limits", () -> BigQueryEmulatorCommand.settingsOf(bigQueryEmulatorArgs(unstarted)));
    if (plan.backlog() > 0) {
      check(
          "publish",
          () ->
              PublishSettings.from(
                  PublisherPipeline.parse(
                      backlogPublisherArgs(UNSTARTED_HOST, unstarted).toArray(new String[0]))));
    }
  }

  /**
   * Starts publishing the plan's live messages from this JVM. A scenario measures its jobs' rates,
   * not their latency against a schedule: no schedule goes to the BigQuery emulator.
   */
  LiveMessages liveMessages(String host, Path segment) throws IOException {
    TaxiRideGenerator generator =
        new TaxiRideGenerator(
            EVENT_SEED,
            plan.messageSize(),
            MessageFormat.fromFlag("publish.message_format", plan.messageFormat()));
    LiveMessages.Load load =
        new LiveMessages.Load(
            plan.scenario().source().topic(),
            plan.messageSize(),
            plan.backlog(),
            plan.liveMessages(),
            plan.rate(),
            null);
    return new LiveMessages(
        source.sender(host), // last: nothing that can fail comes after it
        generator,
        step -> {},
        load,
        segment.resolve(RunFiles.PUBLISHER_LIVE),
        null,
        line -> RunLog.say("%s", line));
  }

  List<String> bigQueryEmulatorArgs(Path segment) {
    return ChildFlags.bigQueryEmulator(
        segment, ScenarioLimits.of(plan.scenario().limits()), null, null, EVENT_SEED);
  }

  /** The backlog's publisher: as fast as it can, when a segment opens. */
  List<String> backlogPublisherArgs(String host, Path segment) {
    return source
        .publisher(host)
        .events(
            LocalJobs.PROJECT, plan.messageFormat(), 0, plan.backlog(), plan.messageSize(), null)
        .result(segment.resolve(RunFiles.PUBLISHER_BACKLOG), null)
        .build();
  }

  private static void check(String key, Runnable validation) {
    try {
      validation.run();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + ": cannot run locally: " + e.getMessage(), e);
    }
  }
}
