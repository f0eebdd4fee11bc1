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

import java.util.ArrayList;
import java.util.List;

/**
 * A round's spec as {@code ingestbench round} flags, for --dry-run and logs (a round runs from the
 * spec itself): the one rendering of a spec as the command that would run it. RoundSpecFlagsTest
 * parses them back into the same spec.
 */
final class RoundFlags {
  private RoundFlags() {}

  static List<String> of(RoundSpec spec) {
    List<String> flags =
        new ArrayList<>(
            List.of(
                "--out",
                spec.out().toString(),
                "--source",
                spec.source().flag(),
                MESSAGE_FORMAT.round(),
                spec.messageFormat().flag(),
                MESSAGE_SIZE.round(),
                Integer.toString(spec.messageSize()),
                "--seed",
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
                "--jobs",
                Integer.toString(spec.jobs()),
                "--sink",
                spec.sink().flag(),
                PULL_BATCH_SIZE.round(),
                Integer.toString(spec.pullBatchSize()),
                "--heap",
                spec.heap(),
                "--max-dead-letters",
                Long.toString(spec.maxDeadLetters()),
                "--timeout",
                Long.toString(spec.timeoutSeconds())));
    if (spec.findMaxRate() == null) {
      // A search publishes what its probes take: these do not apply to it; a profile says how
      // many live messages there are.
      flags.addAll(List.of("--messages", Long.toString(spec.messages())));
      if (spec.liveProfile() == null) {
        flags.addAll(List.of("--live-messages", Long.toString(spec.liveMessages())));
      }
      flags.addAll(List.of(LIVE_RATE.round(), Double.toString(spec.liveRate())));
    }
    flags.addAll(spec.runner().asRoundFlags());
    if (spec.force()) {
      flags.add("--force");
    }
    if (spec.feed()) {
      flags.add("--feed");
    }
    if (spec.kafka()) {
      flags.addAll(
          List.of(
              "--partitions",
              Integer.toString(spec.partitions()),
              "--consumer-groups",
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
      flags.addAll(List.of("--kill-consumer-at", spec.killConsumerAt().toString()));
    }
    if (spec.crashEverySeconds() != null) {
      flags.addAll(List.of("--crash-every", spec.crashEverySeconds().toString()));
    }
    if (spec.savepointAt() != null) {
      flags.addAll(List.of("--savepoint-at", spec.savepointAt().toString()));
    }
    if (spec.liveProfile() != null) {
      flags.addAll(List.of("--live-profile", spec.liveProfile().toString()));
    }
    if (spec.findMaxRate() != null) {
      flags.addAll(
          List.of(
              "--find-max-rate",
              "--latency-slo",
              spec.findMaxRate().latencySlo().toMillis() + "ms",
              "--probe-duration",
              spec.findMaxRate().window().toSeconds() + "s",
              "--max-probes",
              Integer.toString(spec.findMaxRate().maxProbes()),
              "--confirm-probes",
              Integer.toString(spec.findMaxRate().confirmations())));
    }
    spec.consumerArgs().forEach(a -> flags.add("--consumer-arg=" + a));
    return flags;
  }
}
