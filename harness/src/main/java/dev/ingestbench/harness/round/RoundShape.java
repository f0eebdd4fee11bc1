package dev.ingestbench.harness.round;

import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.harness.source.KafkaEventSender;
import dev.ingestbench.harness.source.PubsubEventSender;
import dev.ingestbench.harness.spec.OutDirectory;
import dev.ingestbench.harness.stack.LocalStack;
import dev.ingestbench.harness.staged.JobAccounts;
import dev.ingestbench.harness.staged.LocalJobs;
import dev.ingestbench.harness.staged.SegmentFaults;
import dev.ingestbench.harness.staged.SegmentPublishing;
import dev.ingestbench.harness.staged.SegmentShape;
import dev.ingestbench.pubsub.PubsubAdmin;
import dev.ingestbench.pubsub.PubsubPaths;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * What a round's one segment is made of ({@link SegmentShape}): its servers' files at the top of
 * {@code --out}, the round's topic and every job's subscription (or consumer group), the backlog
 * before any job starts, each job's accounts from its consumer's own result ({@link
 * ConsumerResultAccounts}), and what this JVM publishes: the live messages once the backlog is
 * drained ({@link RoundLiveMessages}), or the max-rate search's probes ({@link RoundSearchRun}).
 */
final class RoundShape implements SegmentShape {
  private final RoundSpec spec;
  private final RoundPlan plan;
  private final LocalJobs jobs;

  RoundShape(RoundSpec spec, RoundPlan plan, LocalJobs jobs) {
    this.spec = spec;
    this.plan = plan;
    this.jobs = jobs;
  }

  static void say(String format, Object... args) {
    System.out.println("[round] " + String.format(Locale.ROOT, format, args));
  }

  private static final Consumer<String> SAY = line -> say("%s", line);

  @Override
  public String voice() {
    return "round";
  }

  @Override
  public LocalStack.Spec stack(Path segment) {
    return new LocalStack.Spec(
        spec.out(),
        "round",
        spec.cluster(),
        plan.kafka(),
        RoundPlan.TOPIC,
        plan.partitions(),
        spec.sink() == RoundSpec.Sink.EMULATOR ? plan.bigQueryEmulatorArgs() : null);
  }

  /**
   * The topic and every job's subscription exist before anything is published (the Kafka topic is
   * the stack's): the backlog is kept for each job, and the live messages, which this JVM
   * publishes, have a topic even when there is no backlog.
   */
  @Override
  public void prepare(String host) throws Exception {
    if (plan.kafka()) {
      if (spec.jobs() > 1) {
        say(
            "Jobs in %s",
            spec.sharedConsumerGroup() ? "one shared consumer group" : "separate consumer groups");
      }
      return;
    }
    PubsubAdmin.ensureTopicAndSubscriptions(
        host,
        topicPath(),
        plan.subscriptions().stream()
            .map(sub -> PubsubPaths.subscription(RoundPlan.PROJECT, "--subscription", sub))
            .toList());
  }

  @Override
  public long backlog() {
    return plan.backlogMessages();
  }

  @Override
  public List<String> backlogPublisherArgs(String host, Path segment) {
    return plan.backlogPublisherArgs(host);
  }

  @Override
  public JobAccounts accounts(LocalStack stack, Path segment) {
    return new ConsumerResultAccounts(spec, plan, jobs);
  }

  @Override
  public SegmentPublishing publishing(LocalStack stack, Path segment) throws Exception {
    if (spec.searches()) {
      return new RoundSearchRun(spec, plan, stack, jobs, this).start();
    }
    if (plan.liveMessages() == 0) {
      return null;
    }
    return new RoundLiveMessages(
        spec, plan, stack, jobs, roundTopic(stack), topicPath(), generator(), SAY);
  }

  @Override
  public SegmentFaults faults(SegmentFaults.Jobs faulted) {
    return new SegmentFaults(faulted, SAY, "round", name -> "the " + name, false);
  }

  /** --kill-consumer-at's checkpoints are kept only while the round runs. */
  @Override
  public void consumersStopped() throws IOException {
    OutDirectory.deleteTree(spec.out().resolve("checkpoints"));
  }

  /** The round's topic as its publisher's result names it. */
  String topicPath() {
    return plan.kafka()
        ? RoundPlan.TOPIC
        : PubsubPaths.topic(RoundPlan.PROJECT, "--topic", RoundPlan.TOPIC);
  }

  /** Senders to the round's topic, which every job reads. */
  RoundRateSearch.Senders roundTopic(LocalStack stack) {
    String host = stack.host();
    return plan.kafka()
        ? () -> new KafkaEventSender(host, RoundPlan.TOPIC)
        : () -> new PubsubEventSender(host, topicPath());
  }

  /** The round's events, as its publishers and its BigQuery generate them. */
  TaxiRideGenerator generator() {
    return new TaxiRideGenerator(spec.seed(), spec.messageSize(), spec.messageFormat());
  }
}
