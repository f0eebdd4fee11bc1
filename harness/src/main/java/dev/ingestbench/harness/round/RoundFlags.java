package dev.ingestbench.harness.round;

import static dev.ingestbench.harness.spec.SettingFlag.CONNECTION_POOL;
import static dev.ingestbench.harness.spec.SettingFlag.CREATE_TABLES;
import static dev.ingestbench.harness.spec.SettingFlag.DESTINATION_TABLES;
import static dev.ingestbench.harness.spec.SettingFlag.LIVE_RATE;
import static dev.ingestbench.harness.spec.SettingFlag.MAX_POOL_CONNECTIONS;
import static dev.ingestbench.harness.spec.SettingFlag.MESSAGE_FORMAT;
import static dev.ingestbench.harness.spec.SettingFlag.MESSAGE_SIZE;
import static dev.ingestbench.harness.spec.SettingFlag.PULL_BATCH_SIZE;
import static dev.ingestbench.harness.spec.SettingFlag.ROW_ENCODING;
import static dev.ingestbench.harness.spec.SettingFlag.ROW_FORMAT;
import static dev.ingestbench.harness.spec.SettingFlag.STREAMS;
import static dev.ingestbench.harness.spec.SettingFlag.TABLE_SKEW;
import static dev.ingestbench.harness.spec.SettingFlag.TRIGGERING_FREQUENCY;
import static dev.ingestbench.harness.spec.SettingFlag.WRITE_METHOD;

import dev.ingestbench.harness.spec.JvmHeap;
import java.util.ArrayList;
import java.util.List;

/**
 * A round's spec as {@code ingestbench round} flags, for --dry-run and logs (a round runs from the
 * spec itself): the one rendering of a spec as the command that would run it. RoundSpecFlagsTest
 * parses them back into the same spec.
 */
public final class RoundFlags {
  private RoundFlags() {}

  // round's flag names, as constants an annotation can name (RoundCommand's options are declared
  // with them); the 14 settings a child process takes are SettingFlag.Round's.
  public static final String OUT = "--out";
  public static final String FORCE = "--force";
  public static final String MESSAGES = "--messages";
  public static final String LIVE_MESSAGES = "--live-messages";
  public static final String LIVE_PROFILE = "--live-profile";
  public static final String SOURCE = "--source";
  public static final String PARTITIONS = "--partitions";
  public static final String CONSUMER_GROUPS = "--consumer-groups";
  public static final String JOBS = "--jobs";
  public static final String SINK = "--sink";
  public static final String FEED = "--feed";
  public static final String SEED = "--seed";
  public static final String HEAP = JvmHeap.FLAG;
  public static final String MAX_DEAD_LETTERS = "--max-dead-letters";
  public static final String TIMEOUT = "--timeout";
  public static final String CONSUMER_ARG = "--consumer-arg";
  public static final String KILL_CONSUMER_AT = "--kill-consumer-at";
  public static final String CRASH_EVERY = "--crash-every";
  public static final String SAVEPOINT_AT = "--savepoint-at";
  public static final String FIND_MAX_RATE = "--find-max-rate";
  public static final String LATENCY_SLO = "--latency-slo";
  public static final String PROBE_DURATION = "--probe-duration";
  public static final String MAX_PROBES = "--max-probes";
  public static final String CONFIRM_PROBES = "--confirm-probes";

  static List<String> of(RoundSpec spec) {
    List<String> flags =
        new ArrayList<>(
            List.of(
                OUT,
                spec.out().toString(),
                SOURCE,
                spec.source().flag(),
                MESSAGE_FORMAT.round(),
                spec.messageFormat().flag(),
                MESSAGE_SIZE.round(),
                Integer.toString(spec.messageSize()),
                SEED,
                Long.toString(spec.seed()),
                WRITE_METHOD.round(),
                spec.job().writeMethod().flag(),
                ROW_FORMAT.round(),
                spec.job().rowFormat().flag(),
                ROW_ENCODING.round(),
                spec.job().rowEncoding().flag(),
                DESTINATION_TABLES.round(),
                Integer.toString(spec.job().destinationTables()),
                TABLE_SKEW.round(),
                spec.job().tableSkew().flag(),
                CREATE_TABLES.round(),
                spec.job().tableCreation().flag(),
                JOBS,
                Integer.toString(spec.jobs()),
                SINK,
                spec.sink().flag(),
                PULL_BATCH_SIZE.round(),
                Integer.toString(spec.pullBatchSize()),
                HEAP,
                spec.heap(),
                MAX_DEAD_LETTERS,
                Long.toString(spec.maxDeadLetters()),
                TIMEOUT,
                Long.toString(spec.timeoutSeconds())));
    if (spec.findMaxRate() == null) {
      // A search publishes what its probes take: these do not apply to it; a profile says how
      // many live messages there are.
      flags.addAll(List.of(MESSAGES, Long.toString(spec.messages())));
      if (spec.liveProfile() == null) {
        flags.addAll(List.of(LIVE_MESSAGES, Long.toString(spec.liveMessages())));
      }
      flags.addAll(List.of(LIVE_RATE.round(), Double.toString(spec.liveRate())));
    }
    flags.addAll(spec.runner().asRoundFlags());
    if (spec.force()) {
      flags.add(FORCE);
    }
    if (spec.feed()) {
      flags.add(FEED);
    }
    if (spec.kafka()) {
      flags.addAll(
          List.of(
              PARTITIONS,
              Integer.toString(spec.partitions()),
              CONSUMER_GROUPS,
              spec.sharedConsumerGroup() ? "shared" : "separate"));
    }
    if (spec.job().connectionPool()) {
      flags.add(CONNECTION_POOL.round());
    }
    if (spec.job().maxPoolConnections() != null) {
      flags.addAll(
          List.of(MAX_POOL_CONNECTIONS.round(), spec.job().maxPoolConnections().toString()));
    }
    if (spec.job().streams() != null) {
      flags.addAll(List.of(STREAMS.round(), spec.job().streams().toString()));
    }
    if (spec.job().triggeringFrequency() != null) {
      flags.addAll(
          List.of(TRIGGERING_FREQUENCY.round(), spec.job().triggeringFrequency().toString()));
    }
    // --quota-mb-per-second=X: the emulator's own flag names, which round takes too
    flags.addAll(spec.emulatorLimits().asFlags());
    if (spec.killConsumerAt() != null) {
      flags.addAll(List.of(KILL_CONSUMER_AT, spec.killConsumerAt().toString()));
    }
    if (spec.crashEverySeconds() != null) {
      flags.addAll(List.of(CRASH_EVERY, spec.crashEverySeconds().toString()));
    }
    if (spec.savepointAt() != null) {
      flags.addAll(List.of(SAVEPOINT_AT, spec.savepointAt().toString()));
    }
    if (spec.liveProfile() != null) {
      flags.addAll(List.of(LIVE_PROFILE, spec.liveProfile().toString()));
    }
    if (spec.findMaxRate() != null) {
      flags.addAll(
          List.of(
              FIND_MAX_RATE,
              LATENCY_SLO,
              spec.findMaxRate().latencySlo().toMillis() + "ms",
              PROBE_DURATION,
              spec.findMaxRate().window().toSeconds() + "s",
              MAX_PROBES,
              Integer.toString(spec.findMaxRate().maxProbes()),
              CONFIRM_PROBES,
              Integer.toString(spec.findMaxRate().confirmations())));
    }
    spec.consumerArgs().forEach(a -> flags.add(CONSUMER_ARG + "=" + a));
    return flags;
  }
}
