package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.ProcessCpuColumns;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.process.ServerWatch;
import dev.ingestbench.harness.source.ConsumerGroupBacklog;
import dev.ingestbench.harness.source.EventSender;
import dev.ingestbench.harness.source.KafkaEventSender;
import dev.ingestbench.harness.source.KafkaFeed;
import dev.ingestbench.harness.source.SourceFeed;
import dev.ingestbench.harness.spec.ChildFlags;
import dev.ingestbench.harness.spec.ConsumerSpec;
import dev.ingestbench.harness.stack.LocalSource;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A scenario on a Kafka broker: each job reads the whole topic through its consumer group, or the
 * jobs of one shared group read it once between them.
 */
final class KafkaScenarioSource implements ScenarioSource {
  private final ScenarioPlan plan;

  KafkaScenarioSource(ScenarioPlan plan) {
    this.plan = plan;
  }

  private String topic() {
    return plan.scenario().source().topic();
  }

  @Override
  public String topicPath() {
    return topic();
  }

  @Override
  public LocalSource start(Path dir, ProcessCpuSampler cpu, ServerWatch watch, Consumer<String> say)
      throws IOException, InterruptedException {
    return LocalSource.kafka(dir, topic(), plan.partitions(), cpu, watch, say);
  }

  @Override
  public String addressPlaceholder() {
    return "KAFKA_BOOTSTRAP";
  }

  @Override
  public String startStep() {
    return "  start a Kafka broker (KRaft, own JVM) on a free port -> KAFKA_BOOTSTRAP; create topic "
        + topic()
        + " with "
        + plan.partitions()
        + " partitions";
  }

  /** Nothing more: the broker starts with the topic, as its start step says. */
  @Override
  public void describeTopic(PrintStream out) {}

  @Override
  public void describeFeedWhileRunning(PrintStream out) {
    out.println(
        String.format(
            Locale.ROOT,
            "  feed the topic while the jobs run, keeping %,d-%,d messages of %,d"
                + " bytes unread by each job being fed (scaled down, the backlog of %,d would be read in seconds; see"
                + " docs/scenarios.md)",
            feedHigh() / 2,
            feedHigh(),
            plan.messageSize(),
            plan.backlog()));
  }

  @Override
  public String serverName() {
    return "broker";
  }

  @Override
  public String leftIn() {
    return "consumer group";
  }

  @Override
  public List<String> subscriptions() {
    return List.of();
  }

  /** Nothing: the broker was started with the topic. */
  @Override
  public void prepare(String host) {}

  /**
   * The jobs of a shared consumer group read the topic once between them, so each counts as having
   * read what the group has (the members' sum, which can only overstate it by messages two of them
   * wrote).
   */
  @Override
  public SourceFeed feed(
      String host,
      StatusReading status,
      ProcessCpuSampler cpu,
      long seed,
      long upTo,
      Consumer<String> say)
      throws IOException, InterruptedException {
    KafkaFeed feed =
        new KafkaFeed(
            host,
            topic(),
            plan.messageSize(),
            plan.messageFormat(),
            seed,
            () -> {
              EmulatorStatus now = status.read();
              return job ->
                  groupOf(job).stream().mapToLong(member -> now.job(member).accountedFor()).sum();
            });
    feed.upTo(upTo);
    try {
      plan.jobs().keySet().forEach(feed::add);
    } catch (RuntimeException | Error e) {
      feed.close();
      throw e;
    }
    cpu.watch(ProcessCpuColumns.SELF_FEEDING_KAFKA, ProcessHandle.current().pid());
    say.accept(
        ScenarioSource.feeding(
            feed,
            upTo,
            plan.messageSize(),
            plan.backlog(),
            "the topic while the jobs run",
            "unread by each job being fed"));
    return feed;
  }

  @Override
  public String feedNote() {
    long high = feedHigh();
    return String.format(
        Locale.ROOT,
        "fed instead: the topic topped up to %,d messages unread by each job being"
            + " fed whenever it has fewer than %,d, for as long as its stages run (what was published: segment-N/%s)",
        high,
        high / 2,
        RunFiles.FEED);
  }

  @Override
  public ConsumerSpec.Reads reads(String job) {
    return new ConsumerSpec.KafkaReads(topic(), plan.consumerGroup(job));
  }

  @Override
  public ChildFlags.Publisher publisher(String host) {
    return ChildFlags.Publisher.kafka(host, topic());
  }

  @Override
  public String clientName() {
    return "Kafka producer";
  }

  @Override
  public EventSender sender(String host) {
    return new KafkaEventSender(host, topic());
  }

  @Override
  public EventSender.Opener unreadTopic(String host, String name) throws Exception {
    KafkaEventSender.createTopic(host, name, 1);
    return () -> new KafkaEventSender(host, name);
  }

  @Override
  public long feedHigh() {
    return KafkaFeed.high(plan.messageSize());
  }

  @Override
  public String fedWhere() {
    return "the topic, kept ahead of every job";
  }

  @Override
  public String fedTopic() {
    return topicPath();
  }

  @Override
  public Optional<String> consumerGroups() {
    if (plan.jobs().size() < 2) {
      return Optional.empty();
    }
    return Optional.of(
        "shared".equals(plan.scenario().source().consumerGroups()) ? "shared" : "separate");
  }

  @Override
  public Optional<Integer> partitions() {
    return Optional.of(plan.partitions());
  }

  /** What the job's consumer group has not committed: read at once, nothing returns later. */
  @Override
  public BitSet left(String host, String job, long stoppedAtNanos, Consumer<String> say)
      throws Exception {
    return ConsumerGroupBacklog.read(host, topic(), plan.consumerGroup(job));
  }

  @Override
  public List<String> groupOf(String job) {
    String group = plan.consumerGroup(job);
    return plan.jobs().keySet().stream().filter(j -> plan.consumerGroup(j).equals(group)).toList();
  }
}
