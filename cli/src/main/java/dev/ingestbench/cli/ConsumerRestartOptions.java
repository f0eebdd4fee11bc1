package dev.ingestbench.cli;

import dev.ingestbench.harness.round.RoundFlags;
import picocli.CommandLine.Option;

/**
 * {@code round}'s consumer restarts, its one stage's {@code kill_consumer_at}, {@code crash_every}
 * and {@code savepoint_at}: each consumer killed and restored from a checkpoint, or stopped with a
 * savepoint and restored from it, while the round runs.
 */
final class ConsumerRestartOptions {
  @Option(
      names = RoundFlags.KILL_CONSUMER_AT,
      paramLabel = "SECONDS",
      description =
          "Kill every consumer JVM (SIGKILL) this many seconds after it started (later if it has not completed a Flink checkpoint yet), and start it again from its last retained checkpoint: exactly-once under a crash, measured.")
  Long killConsumerAt;

  @Option(
      names = RoundFlags.CRASH_EVERY,
      paramLabel = "SECONDS",
      description =
          "Kill every consumer JVM (SIGKILL) this many seconds after each of its lives started writing (once Flink has completed a checkpoint after that) and start it again from its last checkpoint, again and again until it has written every message: exactly-once under repeated crashes, verified row by row (as Beam's BigQueryStreamingLT does). With --kill-consumer-at, the first kill comes then.")
  Long crashEvery;

  @Option(
      names = RoundFlags.SAVEPOINT_AT,
      paramLabel = "SECONDS",
      description =
          "Stop every consumer with a Flink savepoint this many seconds into the round (later if it has not written yet) and start it again from that savepoint: a planned stop and restore, as an upgrade does, verified row by row (a scenario stage's savepoint_at).")
  Long savepointAt;
}
