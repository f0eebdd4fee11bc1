package dev.ingestbench.cli;

import dev.ingestbench.analysis.report.RoundReport;
import dev.ingestbench.consumer.WriteMethod;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.RoundSettings;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.emulator.PubsubEmulator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Carries out a local round: emulator, backlog publisher, consumer, then (once the consumer has
 * drained the backlog) the live publisher, and the report. Every flag of every process is validated
 * before anything starts ({@link RoundPlan}); every process it starts is stopped before it returns,
 * whatever happens.
 */
final class RoundRunner {
  private static final String PUBLISHER_MAIN = "dev.ingestbench.publisher.PublisherPipeline";
  private static final String CONSUMER_MAIN = "dev.ingestbench.consumer.ConsumerPipeline";

  private final RoundCommand flags;
  private final RoundPlan plan;

  /** Validates every process's flags; throws {@link IllegalArgumentException} naming the problem. */
  RoundRunner(RoundCommand flags) {
    this.flags = flags;
    this.plan = new RoundPlan(flags);
  }

  int run() throws Exception {
    Path out = flags.out;
    Files.createDirectories(out);
    for (String stale : new String[] {RunFiles.PUBLISHER_BACKLOG, RunFiles.PUBLISHER_LIVE, RunFiles.CONSUMER_RESULT}) {
      // A reused --out must not lend this round an earlier round's results.
      Files.deleteIfExists(out.resolve(stale));
    }
    RunJson.write(out.resolve(RunFiles.ROUND), settings());
    long backlog = plan.backlogMessages();
    say("Round starting: %,d messages (%,d backlog, then %,d live at %,.0f msg/s), %s, %s, %d table(s) -> %s",
        flags.messages, backlog, flags.liveMessages, flags.liveRate, plan.consumer.writeMethod().flag(),
        plan.consumer.rowFormat().flag(), flags.destinationTables, out);
    try (ProcessCpuSampler cpu = new ProcessCpuSampler(out);
        PubsubEmulator emulator = PubsubEmulator.start()) {
      say("Pub/Sub emulator on %s", emulator.hostAndPort());
      cpu.watch("emulator", emulator.pid());
      String host = emulator.hostAndPort();
      if (backlog > 0) {
        // The subscription exists before anything is published, so the backlog is kept for it.
        try (ChildJvm publisher = ChildJvm.start("publisher", flags.heap, PUBLISHER_MAIN,
            plan.backlogPublisherArgs(host), out.resolve("publisher.log"))) {
          cpu.watch("publisher", publisher.pid());
          requireSuccess(publisher, 3_600);
        }
      }
      AtomicLong accountedFor = new AtomicLong();
      try (ChildJvm consumer = ChildJvm.start("consumer", flags.heap, CONSUMER_MAIN, plan.consumerArgs(host),
          out.resolve("consumer.log"), progress -> accountedFor.set(progress.accountedFor()))) {
        cpu.watch("consumer", consumer.pid());
        ChildJvm live = null;
        try {
          if (flags.liveMessages > 0 && awaitBacklogDrained(consumer, accountedFor, backlog)) {
            say("Backlog drained: publishing %,d live messages at %,.0f msg/s", flags.liveMessages, flags.liveRate);
            live = ChildJvm.start("live-publisher", flags.heap, PUBLISHER_MAIN, plan.livePublisherArgs(host),
                out.resolve("live-publisher.log"));
            cpu.watch("live-publisher", live.pid());
            requireSuccess(live, flags.timeoutSeconds);
          }
          OptionalInt exit = consumer.waitFor(flags.timeoutSeconds + 120);
          if (exit.isEmpty()) {
            throw new IOException("the consumer did not stop within --timeout " + flags.timeoutSeconds + " s; see consumer.log");
          }
          if (exit.getAsInt() != ExitCodes.OK && exit.getAsInt() != ExitCodes.INCOMPLETE) {
            throw new IOException("the consumer failed (exit " + exit.getAsInt() + "); see " + out.resolve("consumer.log"));
          }
        } finally {
          if (live != null) {
            live.close();
          }
        }
      }
    }
    say("Analysing %s", out);
    RoundSummary summary = RoundReport.write(out);
    printSummary(summary, out);
    boolean duplicated = plan.consumer.writeMethod() == WriteMethod.EXACTLY_ONCE && summary.duplicates() > 0;
    return summary.lost() > 0 || duplicated ? ExitCodes.INCOMPLETE : ExitCodes.OK;
  }

  /**
   * Waits until the consumer has accounted for the backlog, so that live messages measure the
   * pipeline's latency rather than time spent queueing behind the backlog. False when the consumer
   * ended (or the timeout passed) first.
   */
  private boolean awaitBacklogDrained(ChildJvm consumer, AtomicLong accountedFor, long backlog)
      throws InterruptedException {
    long deadline = System.nanoTime() + flags.timeoutSeconds * 1_000_000_000L;
    while (accountedFor.get() < backlog) {
      if (!consumer.isAlive() || System.nanoTime() > deadline) {
        say("The consumer did not drain the backlog (%,d of %,d accounted for): no live messages published",
            accountedFor.get(), backlog);
        return false;
      }
      Thread.sleep(200);
    }
    return true;
  }

  private static void requireSuccess(ChildJvm child, long seconds) throws Exception {
    OptionalInt exit = child.waitFor(seconds);
    if (exit.isEmpty()) {
      child.close();
      throw new IOException("the " + child.name() + " did not finish within " + seconds + " s");
    }
    if (exit.getAsInt() != ExitCodes.OK) {
      throw new IOException("the " + child.name() + " failed (exit " + exit.getAsInt() + "); see " + child.name() + ".log");
    }
  }

  private RoundSettings settings() {
    return new RoundSettings(
        flags.messages,
        plan.backlogMessages(),
        flags.liveMessages,
        flags.liveRate,
        flags.messageSize,
        plan.consumer.writeMethod().flag(),
        plan.consumer.rowFormat().flag(),
        plan.consumer.rowEncoding().flag(),
        flags.destinationTables,
        flags.connectionPool,
        flags.runner,
        flags.pullBatchSize,
        flags.seed,
        flags.heap,
        flags.consumerArgs,
        MachineInfo.describe());
  }

  private static void printSummary(RoundSummary s, Path out) {
    say("Published %,d | written %,d | distinct %,d | duplicates %,d | dead-lettered %,d | lost %,d",
        s.published(), s.written(), s.distinctMessageIds(), s.duplicates(), s.deadLettered(), s.lost());
    say("Steady state: %s rows/s, %s rows/s per vCPU, %s rows per consumer CPU-second, consumer CPU %s",
        num(s.rowsPerSecond()), num(s.rowsPerSecondPerVcpu()), num(s.rowsPerCpuSecond()),
        s.cpuUtilisation() == null ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * s.cpuUtilisation()));
    if (s.liveP50LatencyMs() != null) {
      say("Latency publish -> visible of %,d live messages (published after the consumer caught up): p50 %,d ms, p99 %,d ms",
          s.liveLatencySamples(), s.liveP50LatencyMs(), s.liveP99LatencyMs());
    } else {
      say("Latency: %s", s.liveLatencyNote());
    }
    if (s.backlogP50LatencyMs() != null) {
      say("Waiting of the messages published before the consumer caught up: p50 %,d ms, p99 %,d ms",
          s.backlogP50LatencyMs(), s.backlogP99LatencyMs());
    }
    say("Report: %s", out.resolve(RunFiles.REPORT));
  }

  private static String num(Double value) {
    return value == null ? "n/a" : String.format(Locale.ROOT, "%,.0f", value);
  }

  private static void say(String format, Object... args) {
    System.out.println("[round] " + String.format(Locale.ROOT, format, args));
  }
}
