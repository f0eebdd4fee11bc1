package dev.ingestbench.harness.spec;

import dev.ingestbench.bigquery.EmulatorLimitOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the flags of the publishers and the BigQuery emulator a run starts are written (a local
 * consumer's are {@link ConsumerSpec}'s, a setting's name is its {@link SettingFlag}'s), for
 * rounds, staged runs, unordered iterations and Dataflow launches alike ({@link #asParameters}: a
 * template's parameters are these flags). Each builder says what it sets; the process's own parser
 * (run before anything starts) checks the values.
 */
public final class ChildFlags {
  private ChildFlags() {}

  /** The publisher's main class ({@code ingestbench publish}), which a backlog is published by. */
  public static final String PUBLISHER_MAIN = "dev.ingestbench.publisher.PublisherPipeline";

  /**
   * The events' format, which a publisher writes and a consumer reads: {@code json}, {@code avro}.
   */
  public static String messageFormat(String format) {
    return SettingFlag.MESSAGE_FORMAT.child(format);
  }

  /**
   * Flags as a Flex Template's parameters ({@code --name=value} is {@code name -> value}): the same
   * rendering on Dataflow as on this machine.
   */
  public static Map<String, String> asParameters(List<String> flags) {
    Map<String, String> parameters = new LinkedHashMap<>();
    for (String flag : flags) {
      int eq = flag.indexOf('=');
      if (!flag.startsWith("--") || eq < 0) {
        throw new IllegalArgumentException(flag + " is not --name=value");
      }
      parameters.put(flag.substring(2, eq), flag.substring(eq + 1));
    }
    return parameters;
  }

  /** A publisher's flags ({@code ingestbench publish}, or its Dataflow template's parameters). */
  public static final class Publisher {
    private final List<String> flags = new ArrayList<>();

    /** Publishes to the Pub/Sub topic {@code topicPath}, whose subscriptions exist. */
    public static Publisher topic(String topicPath) {
      Publisher p = new Publisher();
      p.flags.add(ChildFlag.TOPIC.is(topicPath));
      return p;
    }

    /**
     * Publishes to {@code topic} on the Pub/Sub emulator at {@code host}, creating {@code
     * subscriptions} first.
     */
    public static Publisher pubsub(String host, String topic, List<String> subscriptions) {
      Publisher p = new Publisher();
      p.flags.addAll(
          List.of(
              ChildFlag.PUBSUB_EMULATOR_HOST.is(host),
              ChildFlag.TOPIC.is(topic),
              ChildFlag.CREATE_SUBSCRIPTIONS.is(String.join(",", subscriptions))));
      return p;
    }

    /** Publishes to {@code topic} on the Kafka broker at {@code bootstrap}. */
    public static Publisher kafka(String bootstrap, String topic) {
      Publisher p = new Publisher();
      p.flags.addAll(
          List.of(
              ChildFlag.SINK.is("kafka"),
              ChildFlag.BOOTSTRAP_SERVERS.is(bootstrap),
              ChildFlag.KAFKA_TOPIC.is(topic)));
      return p;
    }

    /**
     * Events {@code first..first+count-1} of {@code messageSize} bytes; {@code seed} null keeps the
     * default; {@code project} null is the launch's own (a Dataflow job's).
     */
    public Publisher events(
        String project, String messageFormat, long first, long count, int messageSize, Long seed) {
      if (project != null) {
        flags.add(ChildFlag.PROJECT.is(project));
      }
      flags.addAll(
          List.of(
              messageFormat(messageFormat),
              ChildFlag.FIRST_EVENT_INDEX.is(first),
              ChildFlag.NUM_MESSAGES.is(count),
              SettingFlag.MESSAGE_SIZE.child(messageSize)));
      if (seed != null) {
        flags.add(ChildFlag.SEED.is(seed));
      }
      return this;
    }

    /** Publishes from {@code shards} sources at once (a Dataflow job's workers share them). */
    public Publisher shards(int shards) {
      flags.add(ChildFlag.PUBLISHER_SHARDS.is(shards));
      return this;
    }

    /** Publishes at {@code perSecond} messages a second in all (0: as fast as it can). */
    public Publisher rate(double perSecond) {
      if (perSecond > 0) {
        flags.add(SettingFlag.LIVE_RATE.child(String.format(Locale.ROOT, "%.3f", perSecond)));
      }
      return this;
    }

    /**
     * Writes what Pub/Sub (or Kafka) acknowledged to {@code resultFile}, tagged with {@code runId}
     * when not null.
     */
    public Publisher result(Path resultFile, String runId) {
      flags.add(ChildFlag.RESULT_FILE.is(resultFile));
      if (runId != null) {
        flags.add(ChildFlag.RUN_ID.is(runId));
      }
      return this;
    }

    public List<String> build() {
      return List.copyOf(flags);
    }
  }

  /**
   * The BigQuery emulator's flags: free ports, its files into {@code out}, stopping when its
   * standard input closes, and {@code limits}; a round adds its id and the published count; {@code
   * contentSeed}, the publishers' seed, has every row's content checked.
   */
  public static List<String> bigQueryEmulator(
      Path out, EmulatorLimitOptions limits, String runId, Long published, Long contentSeed) {
    List<String> flags =
        new ArrayList<>(
            List.of("--port=0", "--rest-port=0", "--out=" + out, "--exit-on-stdin-eof"));
    if (runId != null) {
      flags.add("--run-id=" + runId);
    }
    if (published != null) {
      flags.add("--published-messages=" + published);
    }
    if (contentSeed != null) {
      flags.add("--content-seed=" + contentSeed);
    }
    flags.addAll(limits.asFlags());
    return flags;
  }
}
