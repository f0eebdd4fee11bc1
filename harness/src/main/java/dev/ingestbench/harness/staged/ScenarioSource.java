package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.source.EventSender;
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
 * What a local scenario does differently for its source: the Pub/Sub emulator, where each job reads
 * its own subscription, or a Kafka broker, where each job reads the topic through its consumer
 * group (one per job, or one shared). Every Pub/Sub-or-Kafka choice of the scenario's target is
 * made here, once, by {@link #of}.
 */
public sealed interface ScenarioSource extends LocalSource.Starter
    permits PubsubScenarioSource, KafkaScenarioSource {

  static ScenarioSource of(ScenarioPlan plan) {
    return plan.kafka() ? new KafkaScenarioSource(plan) : new PubsubScenarioSource(plan);
  }

  /** How {@code --dry-run} names the source's address: {@code PUBSUB_HOST}. */
  String addressPlaceholder();

  /**
   * {@code --dry-run}: how the topic is made ready for every job (the Pub/Sub topic and its
   * subscriptions; nothing more for Kafka, whose broker starts with the topic).
   */
  void describeTopic(PrintStream out);

  /**
   * {@code --dry-run}: how {@link #feed} feeds the jobs up to {@code upTo} messages each ({@link
   * Long#MAX_VALUE}: for as long as they run), writing its files into {@code segment}.
   */
  default void describeFeed(PrintStream out, long upTo, Path segment) {
    if (upTo == Long.MAX_VALUE) {
      describeFeedWhileRunning(out);
      return;
    }
    long high = feedHigh();
    out.println(
        String.format(
            Locale.ROOT,
            "  as each job starts, feed it the backlog of %,d messages from this JVM in tranches"
                + " (%s), topping it up to %,d waiting whenever fewer than %,d are, by what the"
                + " BigQuery emulator says it accounted for; then write %s and %s",
            upTo,
            fedWhere(),
            high,
            high / 2,
            segment.resolve(RunFiles.FEED),
            segment.resolve(RunFiles.PUBLISHER_BACKLOG)));
  }

  /** {@code --dry-run}: how the jobs are fed for as long as they run (a scaled-down backlog). */
  void describeFeedWhileRunning(PrintStream out);

  /** The server, as the run's last step names it: {@code Pub/Sub emulator}. */
  String serverName();

  /** What a stopped job's unread messages are counted in: {@code subscription}. */
  String leftIn();

  /**
   * Every job's subscription: created before anything is published, so each keeps every message.
   * None for Kafka, where every job reads every partition.
   */
  List<String> subscriptions();

  /**
   * Makes the topic ready before anything is published and any job starts (the Pub/Sub topic and
   * every job's subscription; a Kafka topic is made with its broker); nothing for a fed run, whose
   * feed makes its own.
   */
  void prepare(String host) throws IOException;

  /** The BigQuery emulator's status, read now. */
  @FunctionalInterface
  interface StatusReading {
    EmulatorStatus read() throws IOException;
  }

  /**
   * Starts feeding every job of a scaled, backlog-only run (or a round's backlog in tranches), and
   * says so; this JVM, which feeds, is recorded in {@code cpu} as the feed.
   *
   * @param seed the events' seed
   * @param upTo the most each job is fed (a backlog in tranches), or {@link Long#MAX_VALUE} to feed
   *     it for as long as it runs
   * @param say where it says that it feeds
   */
  SourceFeed feed(
      String host,
      StatusReading status,
      ProcessCpuSampler cpu,
      long seed,
      long upTo,
      Consumer<String> say)
      throws IOException, InterruptedException;

  /**
   * The line that says a feed has begun: a round's backlog in tranches ({@code upTo} each), or a
   * scaled scenario's for as long as its stages run.
   *
   * @param where what is fed, and while what: "each job its own topic while it runs"
   * @param waiting how what is waiting is counted: "waiting", "unread by each job being fed"
   */
  static String feeding(
      SourceFeed feed, long upTo, int messageSize, long backlog, String where, String waiting) {
    return feed.bounded()
        ? String.format(
            Locale.ROOT,
            "Feeding %s: %,d messages of %,d bytes in tranches, %,d-%,d %s",
            where,
            upTo,
            messageSize,
            feed.low(),
            feed.high(),
            waiting)
        : String.format(
            Locale.ROOT,
            "Feeding %s, %,d-%,d messages of %,d bytes %s (the scaled backlog of %,d would be read"
                + " in seconds)",
            where,
            feed.low(),
            feed.high(),
            messageSize,
            waiting,
            backlog);
  }

  /** How a fed run publishes, for run.json's scaled values and the report. */
  String feedNote();

  /** Where job {@code job}'s consumer reads. */
  ConsumerSpec.Reads reads(String job);

  /** Where the publishers publish. */
  ChildFlags.Publisher publisher(String host);

  /** The client {@link #sender} is, as the dry run names it: {@code Pub/Sub client}. */
  String clientName();

  /** The topic as a client names it: a Pub/Sub topic's full path, a Kafka topic's name. */
  String topicPath();

  /** A client that sends to the scenario's topic, for the live messages this JVM publishes. */
  EventSender sender(String host) throws IOException;

  /**
   * Makes topic {@code name}, which no job reads (a Kafka topic of one partition: what is measured
   * is the producer, not the broker's parallelism), and opens senders to it: the publisher's own
   * capacity, measured alone.
   */
  EventSender.Opener unreadTopic(String host, String name) throws Exception;

  /** The most messages a round's feed keeps waiting for each job (it tops up at half of it). */
  long feedHigh();

  /** --dry-run of a round's feed: what it feeds ("the topic, kept ahead of every job"). */
  String fedWhere();

  /** What a fed round's backlog result names as its topic. */
  String fedTopic();

  /**
   * How a round's jobs share the source, where there is a choice: {@code shared} (one Kafka
   * consumer group) or {@code separate}, for more than one job on Kafka; round.json records it.
   */
  Optional<String> consumerGroups();

  /** The topic's partitions, as round.json records them; empty where the source has none. */
  Optional<Integer> partitions();

  /**
   * The event indexes left unread in job {@code job}'s source, once it stopped at {@code
   * stoppedAtNanos} ({@link System#nanoTime}), saying with {@code say} what it waits for.
   */
  BitSet left(String host, String job, long stoppedAtNanos, Consumer<String> say) throws Exception;

  /**
   * The jobs that read through {@code job}'s Kafka consumer group (just {@code job} but for a
   * shared group).
   */
  List<String> groupOf(String job);
}
