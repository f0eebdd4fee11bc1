package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.ProcessCpuColumns;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.process.ServerWatch;
import dev.ingestbench.harness.source.EventSender;
import dev.ingestbench.harness.source.PubsubEventSender;
import dev.ingestbench.harness.source.PubsubFeed;
import dev.ingestbench.harness.source.SourceFeed;
import dev.ingestbench.harness.source.SubscriptionBacklog;
import dev.ingestbench.harness.spec.ChildFlags;
import dev.ingestbench.harness.spec.ConsumerSpec;
import dev.ingestbench.harness.stack.LocalSource;
import dev.ingestbench.pubsub.PubsubAdmin;
import dev.ingestbench.pubsub.PubsubPaths;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/** A scenario on the Pub/Sub emulator: each job reads a subscription of its own. */
final class PubsubScenarioSource implements ScenarioSource {
  /**
   * A stopped job's pulled, unacknowledged messages return to its subscription only when their ack
   * deadline ends: counting earlier would call them lost.
   */
  static final long RETURN_SECONDS = PubsubAdmin.EMULATOR_ACK_DEADLINE_SECONDS + 2;

  private final ScenarioPlan plan;

  PubsubScenarioSource(ScenarioPlan plan) {
    this.plan = plan;
  }

  @Override
  public LocalSource start(Path dir, ProcessCpuSampler cpu, ServerWatch watch, Consumer<String> say)
      throws IOException {
    return LocalSource.pubsub(cpu, watch, say);
  }

  @Override
  public String addressPlaceholder() {
    return "PUBSUB_HOST";
  }

  @Override
  public String startStep() {
    return "  start the Pub/Sub emulator (pstest) on a free port -> PUBSUB_HOST";
  }

  @Override
  public void describeTopic(PrintStream out) {
    out.println(
        "  create topic "
            + plan.scenario().source().topic()
            + " and subscriptions "
            + subscriptions());
  }

  @Override
  public void describeFeedWhileRunning(PrintStream out) {
    out.println(
        String.format(
            Locale.ROOT,
            "  create one topic per job, each with its subscription %s; feed each"
                + " job its topic while it runs, keeping %,d-%,d messages of %,d bytes waiting (scaled down, the backlog"
                + " of %,d would be read in seconds; see docs/scenarios.md)",
            subscriptions(),
            feedHigh() / 2,
            feedHigh(),
            plan.messageSize(),
            plan.backlog()));
  }

  @Override
  public String serverName() {
    return "Pub/Sub emulator";
  }

  @Override
  public String leftIn() {
    return "subscription";
  }

  @Override
  public List<String> subscriptions() {
    return plan.jobs().keySet().stream().map(plan::subscription).toList();
  }

  @Override
  public void prepare(String host) throws IOException {
    if (plan.fedLocally()) {
      return; // each job's feed makes its own topic
    }
    PubsubAdmin.ensureTopicAndSubscriptions(
        host,
        PubsubPaths.topic(LocalJobs.PROJECT, "source.topic", plan.scenario().source().topic()),
        subscriptions().stream()
            .map(s -> PubsubPaths.subscription(LocalJobs.PROJECT, "source.subscriptions", s))
            .toList());
  }

  @Override
  public SourceFeed feed(
      String host,
      StatusReading status,
      ProcessCpuSampler cpu,
      long seed,
      long upTo,
      Consumer<String> say)
      throws IOException, InterruptedException {
    PubsubFeed feed =
        new PubsubFeed(
            host,
            LocalJobs.PROJECT,
            plan.messageSize(),
            plan.messageFormat(),
            seed,
            () -> {
              EmulatorStatus now = status.read();
              return job -> now.job(job).accountedFor();
            });
    feed.upTo(upTo);
    try {
      for (String job : plan.jobs().keySet()) {
        feed.add(job, plan.subscription(job)); // makes its topic and publisher: may fail
      }
    } catch (Exception | Error e) {
      feed.close();
      throw e;
    }
    cpu.watch(ProcessCpuColumns.SELF_FEEDING_PUBSUB, ProcessHandle.current().pid());
    say.accept(
        ScenarioSource.feeding(
            feed,
            upTo,
            plan.messageSize(),
            plan.backlog(),
            "each job its own topic while it runs",
            "waiting"));
    return feed;
  }

  @Override
  public String feedNote() {
    long high = feedHigh();
    return String.format(
        Locale.ROOT,
        "fed instead: each job its own topic, topped up to %,d messages whenever fewer"
            + " than %,d are waiting, for as long as its stages run (what each got: segment-N/%s)",
        high,
        high / 2,
        RunFiles.FEED);
  }

  @Override
  public ConsumerSpec.Reads reads(String job) {
    return new ConsumerSpec.PubsubReads(plan.subscription(job), null);
  }

  @Override
  public ChildFlags.Publisher publisher(String host) {
    return ChildFlags.Publisher.pubsub(host, plan.scenario().source().topic(), subscriptions());
  }

  @Override
  public String clientName() {
    return "Pub/Sub client";
  }

  @Override
  public String topicPath() {
    return PubsubPaths.topic(LocalJobs.PROJECT, "source.topic", plan.scenario().source().topic());
  }

  @Override
  public EventSender sender(String host) throws IOException {
    return new PubsubEventSender(host, topicPath());
  }

  @Override
  public EventSender.Opener unreadTopic(String host, String name) throws Exception {
    String topic = PubsubPaths.topic(LocalJobs.PROJECT, "--topic", name);
    PubsubAdmin.ensureTopicAndSubscriptions(host, topic, List.of());
    return () -> new PubsubEventSender(host, topic);
  }

  @Override
  public long feedHigh() {
    return PubsubFeed.high(plan.messageSize());
  }

  @Override
  public String fedWhere() {
    return "each job its own topic, named as its subscription";
  }

  @Override
  public String fedTopic() {
    return "one topic per job (" + RunFiles.FEED + ")";
  }

  @Override
  public Optional<String> consumerGroups() {
    return Optional.empty();
  }

  @Override
  public Optional<Integer> partitions() {
    return Optional.empty();
  }

  /** Waits until what the job had pulled has returned to its subscription, then reads it. */
  @Override
  public BitSet left(String host, String job, long stoppedAtNanos, Consumer<String> say)
      throws IOException, InterruptedException {
    long wait = stoppedAtNanos + RETURN_SECONDS * 1_000_000_000L - System.nanoTime();
    if (wait > 0) {
      say.accept(
          String.format(
              Locale.ROOT,
              "Waiting %d s for what job %s had pulled to return to its subscription (its ack"
                  + " deadline) before counting what it left",
              (wait + 999_999_999) / 1_000_000_000,
              job));
      Thread.sleep(wait / 1_000_000);
    }
    return SubscriptionBacklog.read(
        host,
        PubsubPaths.subscription(
            LocalJobs.PROJECT, "source.subscriptions", plan.subscription(job)));
  }

  @Override
  public List<String> groupOf(String job) {
    return List.of(job);
  }
}
