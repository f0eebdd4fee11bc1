package dev.ingestbench.harness.round;

import dev.ingestbench.analysis.report.MultiJobResults;
import dev.ingestbench.analysis.report.RoundReport;
import dev.ingestbench.analysis.report.UnfinishedStreams;
import dev.ingestbench.consumer.WriteMethod;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.MachineInfo;
import dev.ingestbench.contracts.RoundSettings;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.emulator.PubsubEmulator;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.process.ChildJvm;
import dev.ingestbench.harness.process.ConsumerKill;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.process.ServerWatch;
import dev.ingestbench.harness.verify.Finding;
import dev.ingestbench.harness.verify.JobCounts;
import dev.ingestbench.harness.verify.Verdict;
import dev.ingestbench.harness.verify.VerificationPolicy;
import dev.ingestbench.kafka.LocalKafka;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Carries out a local round: the Pub/Sub and BigQuery emulators, backlog publisher, one consumer per
 * job, then (once every consumer has drained the backlog) the live publisher, and the reports. Every flag of every process is validated
 * before anything starts ({@link RoundPlan}); every process it starts is stopped before it returns,
 * whatever happens.
 */
public final class RoundRunner {
  private static final String PUBLISHER_MAIN = "dev.ingestbench.publisher.PublisherPipeline";
  private static final String CONSUMER_MAIN = "dev.ingestbench.consumer.local.LocalConsumer";

  private final RoundSpec spec;
  private final RoundPlan plan;
  /** Set by a signal: the children are being stopped, so what the round would say of them is noise. */
  private static volatile boolean signalled;

  /** Validates every process's flags; throws {@link IllegalArgumentException} naming the problem. */
  public RoundRunner(RoundSpec spec) {
    this.spec = spec;
    this.plan = new RoundPlan(spec);
  }

  public int run() throws Exception {
    // Ctrl-C or SIGTERM: every child's own hook stops it; this one says so and tidies up after them.
    Thread onSignal = new Thread(this::stoppedBySignal, "round-stopped-by-signal");
    Runtime.getRuntime().addShutdownHook(onSignal);
    try {
      return runRound();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(onSignal);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running
      }
    }
  }

  private int runRound() throws Exception {
    Path out = spec.out();
    Files.createDirectories(out);
    deleteStaleResults(out);
    RunJson.write(out.resolve(RunFiles.ROUND), settings());
    long backlog = plan.backlogMessages();
    say("Round starting: %,d %s messages from %s (%,d backlog, then %,d live at %,.0f msg/s), %s, %s, %d table(s), %d job(s) -> %s",
        spec.messages(), plan.consumer.messageFormat().flag(), spec.source().flag(), backlog, spec.liveMessages(), spec.liveRate(),
        plan.consumer.writeMethod().flag(),
        plan.consumer.rowFormat().flag(), spec.job().destinationTables(), spec.jobs(), out);
    try (ProcessCpuSampler cpu = new ProcessCpuSampler(out);
        PubsubEmulator emulator = plan.kafka() ? null : PubsubEmulator.start();
        LocalKafka kafka = plan.kafka()
            ? LocalKafka.start(out.resolve("kafka-data"), out.resolve("kafka.log"), plan.partitions(), "1g")
            : null) {
      String host;
      if (kafka != null) {
        kafka.createTopic(RoundPlan.TOPIC, plan.partitions());
        host = kafka.bootstrapServers();
        say("Kafka %s broker (KRaft) on %s: topic %s with %d partitions%s", LocalKafka.version(),
            host, RoundPlan.TOPIC, plan.partitions(),
            spec.jobs() == 1 ? "" : ", jobs in " + (spec.sharedConsumerGroup() ? "one shared consumer group" : "separate consumer groups"));
        cpu.watch("kafka", kafka.pid());
      } else {
        host = emulator.hostAndPort();
        say("Pub/Sub emulator on %s", host);
        cpu.watch("emulator", emulator.pid());
      }
      BigQueryEmulatorProcess bigQuery = null;
      ServerWatch watch = new ServerWatch();
      if (kafka != null) {
        watch.watch(new ServerWatch.Server("Kafka broker", kafka::isAlive, kafka::lastLines));
      } else {
        watch.watch(new ServerWatch.Server("Pub/Sub emulator", emulator::isAlive,
            () -> "(pstest prints to this console; it exited with code " + emulator.exitCode() + ")"));
      }
      try {
        BigQueryEmulatorProcess.Address address = new BigQueryEmulatorProcess.Address("", "");
        if (spec.sink() == RoundSpec.Sink.EMULATOR) {
          bigQuery = BigQueryEmulatorProcess.start(plan.bigQueryEmulatorArgs(), out.resolve("bigquery-emulator.log"));
          address = bigQuery.address();
          say("BigQuery emulator: Storage Write API on %s, REST on %s", address.grpc(), address.rest());
          cpu.watch("bigquery-emulator", bigQuery.pid());
          ChildJvm bigQueryJvm = bigQuery.jvm();
          watch.watch(new ServerWatch.Server("BigQuery emulator", bigQueryJvm::isAlive,
              () -> bigQueryJvm.lastLines() + System.lineSeparator() + "(exit code "
                  + bigQueryJvm.exitCode().orElse(-1) + "; all of it in " + out.resolve("bigquery-emulator.log") + ")"));
        }
        if (backlog > 0) {
          // The subscriptions exist before anything is published, so the backlog is kept for them.
          try (ChildJvm publisher = ChildJvm.start("publisher", spec.heap(), PUBLISHER_MAIN,
              plan.backlogPublisherArgs(host), out.resolve("publisher.log"))) {
            watch.stopOnDeath(publisher);
            cpu.watch("publisher", publisher.pid());
            publisher.requireSuccess(3_600);
          }
        }
        consume(cpu, watch, host, address, backlog);
      } catch (IOException | RuntimeException e) {
        // A process that failed because a server died: the death is the reason to report.
        if (watch.death().isPresent()) {
          throw new IOException(watch.death().get(), e);
        }
        throw e;
      } finally {
        watch.close();
        if (bigQuery != null) {
          bigQuery.close();
        }
        deleteTree(out.resolve("checkpoints")); // --kill-consumer-at's, kept only while the round runs
      }
      if (watch.death().isPresent()) {
        throw new IOException(watch.death().get());
      }
    }
    say("Analysing %s", out);
    List<RoundSummary> jobSummaries = new ArrayList<>();
    if (spec.jobs() > 1) {
      for (int j = 1; j <= spec.jobs(); j++) {
        jobSummaries.add(RoundReport.write(plan.jobDirectory(j)));
      }
      MultiJobResults.combine(out, jobDirs(plan::jobDirectory));
    }
    // Every process has stopped: no CSV changes after this, and the analysis checks each against it.
    RunJson.write(out.resolve(RunFiles.CSV_CHECKSUMS), dev.ingestbench.contracts.CsvChecksums.of(out, plan.runId));
    RoundSummary summary = RoundReport.write(out);
    printSummary(summary, out);
    for (int j = 1; j <= jobSummaries.size(); j++) {
      printJob(j, jobSummaries.get(j - 1));
    }
    return judge(jobSummaries.isEmpty() ? List.of(summary) : jobSummaries, out);
  }

  /**
   * Judges every job on its own by the one verification policy and says why the round failed, if it
   * did: the exit code is the policy's.
   */
  private int judge(List<RoundSummary> jobs, Path out) throws IOException {
    Verdict verdict = new Verdict(new VerificationPolicy(spec.maxDeadLetters()));
    boolean exactlyOnce = plan.consumer.writeMethod() == WriteMethod.EXACTLY_ONCE;
    for (int j = 1; j <= jobs.size(); j++) {
      RoundSummary s = jobs.get(j - 1);
      JobCounts counts = new JobCounts(null, spec.jobs() == 1 ? "consumer" : "consumer-" + j, exactlyOnce,
          s.published(), s.written(), s.distinctMessageIds(), s.duplicates(), s.deadLettered(),
          s.published() - s.lost(), null, null);
      if (String.valueOf(s.stopReason()).contains("timeout")) {
        // Not a verification result: the messages may well have arrived after the consumer stopped.
        counts = counts.unverified(String.format(Locale.ROOT, "its consumer stopped at --timeout %d s (%s) before"
            + " every message was accounted for, so 'lost' above is not a measured loss; raise --timeout or lower"
            + " --messages", spec.timeoutSeconds(), s.stopReason()));
      }
      verdict.judge(counts);
    }
    for (Finding f : verdict.failuresFirst()) {
      say("%s %s", f.kind() == Finding.Kind.UNVERIFIED ? "The round is incomplete:" : "Verification failed:", f.line());
    }
    List<Finding.Kind> kinds = verdict.findings().stream().map(Finding::kind).toList();
    if (kinds.contains(Finding.Kind.DUPLICATES)) {
      say("After a restore from a checkpoint (a worker failure, a killed consumer) the rows the job had appended and"
          + " flushed after that checkpoint are written again: on Flink, Beam's flush does not wait for the"
          + " checkpoint holding the append. See docs/bigquery-emulator.md, 'A worker failure'");
    }
    if (kinds.contains(Finding.Kind.LOST) || kinds.contains(Finding.Kind.UNVERIFIED)) {
      String unfinished = unfinishedStreams(out);
      if (unfinished != null) {
        say("%s", unfinished);
      }
    }
    if (kinds.contains(Finding.Kind.DEAD_LETTERS)) {
      say("The report's 'Dead letters' section has each dead letter's stage and reason");
    }
    return verdict.exitCode();
  }

  /** The local BigQuery's sentence about rows appended and never made visible, or null. */
  private static String unfinishedStreams(Path out) throws IOException {
    Path status = out.resolve(RunFiles.BIGQUERY_EMULATOR);
    return Files.exists(status)
        ? UnfinishedStreams.sentence(RunJson.read(status, dev.ingestbench.contracts.EmulatorStatus.class))
        : null;
  }

  /** What a round writes into --out: an --out holding any of them holds an earlier round. */
  private static final List<String> ROUND_FILES = List.of(RunFiles.ROUND, RunFiles.PUBLISHER_BACKLOG,
      RunFiles.PUBLISHER_LIVE, RunFiles.CONSUMER_RESULT, RunFiles.CONNECTIONS, RunFiles.BIGQUERY_EMULATOR,
      RunFiles.TIMELINE, RunFiles.TIMELINE_PER_SECOND, RunFiles.SUMMARY, RunFiles.REPORT, RunFiles.CONSUMER_SAMPLES,
      RunFiles.PROCESSES_CPU);

  /**
   * A reused --out must not lend this round an earlier round's results: refused unless --force,
   * which deletes the files a round writes (and its job directories), nothing else.
   */
  private void deleteStaleResults(Path out) throws IOException {
    List<Path> earlier = new ArrayList<>();
    for (String name : ROUND_FILES) {
      if (Files.exists(out.resolve(name))) {
        earlier.add(out.resolve(name));
      }
    }
    try (var entries = Files.list(out)) {
      entries.filter(p -> Files.isDirectory(p) && p.getFileName().toString().matches("job-\\d+")
          && Files.exists(p.resolve(RunFiles.CONSUMER_RESULT))).forEach(earlier::add);
    }
    if (Files.isDirectory(out.resolve("checkpoints"))) {
      earlier.add(out.resolve("checkpoints")); // a --kill-consumer-at round stopped before it removed them
    }
    if (earlier.isEmpty()) {
      return;
    }
    if (!spec.force()) {
      throw new IllegalArgumentException("--out " + out + " holds an earlier round's files (" + earlier.get(0).getFileName()
          + (earlier.size() > 1 ? " and " + (earlier.size() - 1) + " more" : "") + "); give another --out, or add"
          + " --force to replace them");
    }
    for (Path p : earlier) {
      if (Files.isDirectory(p)) {
        try (var tree = Files.walk(p)) {
          for (Path q : tree.sorted(java.util.Comparator.reverseOrder()).toList()) {
            Files.deleteIfExists(q);
          }
        }
      } else {
        Files.deleteIfExists(p);
      }
    }
  }

  /**
   * Ctrl-C or SIGTERM: waits while the children's own hooks stop them (each writes what it has; a
   * consumer writes checkpoints until it is gone), then removes {@code --kill-consumer-at}'s
   * checkpoints and says what is left in --out.
   */
  private void stoppedBySignal() {
    signalled = true;
    System.out.println("[round] Stopped by a signal: stopping the round's processes (each writes what it has)...");
    ChildJvm.awaitAllStopped();
    Path checkpoints = spec.out().resolve("checkpoints");
    try {
      deleteTree(checkpoints);
    } catch (IOException | RuntimeException e) {
      System.err.println("Could not remove " + checkpoints + ": " + e);
    }
    boolean results;
    try (var files = Files.find(spec.out(), 2, (p, a) -> p.getFileName().toString().equals(RunFiles.CONSUMER_RESULT))) {
      results = files.findAny().isPresent();
    } catch (IOException | RuntimeException e) {
      results = false;
    }
    System.out.println("[round] Stopped: nothing was verified; the logs and partial files are in " + spec.out()
        + (results ? "" : " (no consumer_result.json: the consumer was stopped before its pipeline ran)"));
  }

  private static void deleteTree(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (var tree = Files.walk(dir)) {
        for (Path p : tree.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  /** Starts every job's consumer, publishes the live messages once all drained the backlog, waits. */
  private void consume(
      ProcessCpuSampler cpu, ServerWatch watch, String host, BigQueryEmulatorProcess.Address bigQuery, long backlog)
      throws Exception {
    List<ChildJvm> consumers = new ArrayList<>();
    AtomicLongArray accountedFor = new AtomicLongArray(spec.jobs());
    ChildJvm live = null;
    try {
      for (int j = 1; j <= spec.jobs(); j++) {
        int job = j - 1;
        String name = spec.jobs() == 1 ? "consumer" : "consumer-" + j;
        Files.createDirectories(plan.jobDirectory(j));
        ChildJvm consumer = ChildJvm.start(name, spec.heap(), CONSUMER_MAIN, plan.consumerArgs(host, j, bigQuery),
            spec.out().resolve(name + ".log"), progress -> accountedFor.set(job, progress.accountedFor()));
        consumers.add(consumer);
        watch.stopOnDeath(consumer);
        cpu.watch(name, consumer.pid());
      }
      ConsumerKill kill = spec.killConsumerAt() == null ? null : new ConsumerKill(spec.killConsumerAt(),
          jobDirs(plan::checkpointDirectory), (j, checkpoint) -> {
            String name = spec.jobs() == 1 ? "consumer" : "consumer-" + j;
            List<String> args = new ArrayList<>(plan.consumerArgs(host, j, bigQuery));
            args.add("--savepointPath=" + checkpoint.toUri());
            ChildJvm restarted = ChildJvm.start(name, spec.heap(), CONSUMER_MAIN, args,
                spec.out().resolve(name + "-restarted.log"), progress -> accountedFor.set(j - 1, progress.accountedFor()));
            watch.stopOnDeath(restarted);
            cpu.watch(name + "-restarted", restarted.pid());
            return restarted;
          });
      Runnable tick = () -> {
        if (kill != null) {
          try {
            kill.tick(consumers);
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      };
      if (spec.liveMessages() > 0 && awaitBacklogDrained(watch, consumers, accountedFor, backlog, tick)) {
        say("Backlog drained: publishing %,d live messages at %,.0f msg/s", spec.liveMessages(), spec.liveRate());
        live = ChildJvm.start("live-publisher", spec.heap(), PUBLISHER_MAIN, plan.livePublisherArgs(host),
            spec.out().resolve("live-publisher.log"));
        watch.stopOnDeath(live);
        cpu.watch("live-publisher", live.pid());
        ChildJvm publisher = live;
        waitWhileAlive(() -> publisher, spec.timeoutSeconds(), tick);
        if (live.isAlive()) {
          throw new IOException("the live-publisher did not finish within --timeout " + spec.timeoutSeconds()
              + " s; see live-publisher.log");
        }
        live.requireSuccess(1); // it has exited: this only checks its exit code
      }
      for (int j = 0; j < consumers.size(); j++) {
        int job = j;
        waitWhileAlive(() -> consumers.get(job), spec.timeoutSeconds() + 120, tick); // the kill may replace it
        ChildJvm consumer = consumers.get(j);
        OptionalInt exit = consumer.waitFor(1);
        if (exit.isEmpty()) {
          throw new IOException("the " + consumer.name() + " did not stop within --timeout " + spec.timeoutSeconds()
              + " s; see " + consumer.name() + ".log");
        }
        if (exit.getAsInt() != ExitCodes.OK && exit.getAsInt() != ExitCodes.INCOMPLETE) {
          throw new IOException("the " + consumer.name() + " failed (exit " + exit.getAsInt() + "); see "
              + spec.out().resolve(consumer.name() + ".log"));
        }
      }
    } finally {
      if (live != null) {
        live.close();
      }
      consumers.forEach(ChildJvm::close);
    }
  }

  /**
   * Waits until every consumer has accounted for the backlog, so that live messages measure the
   * pipeline's latency rather than time spent queueing behind the backlog. False when a consumer
   * ended (or the timeout passed) first.
   */
  private boolean awaitBacklogDrained(
      ServerWatch watch, List<ChildJvm> consumers, AtomicLongArray accountedFor, long backlog, Runnable tick)
      throws InterruptedException {
    long deadline = System.nanoTime() + spec.timeoutSeconds() * 1_000_000_000L;
    for (int j = 0; j < consumers.size(); j++) {
      while (accountedFor.get(j) < backlog) {
        if (watch.death().isPresent()) {
          return false; // the round ends with the death's message
        }
        if (!consumers.get(j).isAlive() || System.nanoTime() > deadline) {
          say("The %s did not drain the backlog (%,d of %,d accounted for): no live messages published",
              consumers.get(j).name(), accountedFor.get(j), backlog);
          return false;
        }
        tick.run();
        Thread.sleep(200);
      }
    }
    return true;
  }

  /** Waits while {@code child} runs (at most {@code seconds}), giving {@code tick} its turn every 200 ms. */
  private static void waitWhileAlive(java.util.function.Supplier<ChildJvm> child, long seconds, Runnable tick)
      throws InterruptedException {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    while (child.get().isAlive() && System.nanoTime() < deadline) {
      tick.run();
      Thread.sleep(200);
    }
  }

  /** One directory per job (1-based), as {@code dirOf} names it. */
  private List<Path> jobDirs(java.util.function.IntFunction<Path> dirOf) {
    List<Path> dirs = new ArrayList<>();
    for (int j = 1; j <= spec.jobs(); j++) {
      dirs.add(dirOf.apply(j));
    }
    return dirs;
  }

  private RoundSettings settings() {
    return new RoundSettings(
        spec.messages(),
        plan.backlogMessages(),
        spec.liveMessages(),
        spec.liveRate(),
        spec.messageSize(),
        plan.consumer.writeMethod().flag(),
        plan.consumer.rowFormat().flag(),
        plan.consumer.rowEncoding().flag(),
        spec.job().destinationTables(),
        spec.job().connectionPool(),
        spec.runner(),
        spec.pullBatchSize(),
        spec.seed(),
        spec.heap(),
        spec.consumerArgs(),
        MachineInfo.describe(),
        spec.jobs(),
        spec.sink().flag(),
        spec.sink() == RoundSpec.Sink.EMULATOR ? plan.bigQueryEmulatorArgs() : List.of(),
        spec.source().flag(),
        plan.consumer.messageFormat().flag(),
        plan.kafka() ? plan.partitions() : null,
        plan.kafka() && spec.jobs() > 1 ? (spec.sharedConsumerGroup() ? "shared" : "separate") : null,
        plan.runId,
        spec.killConsumerAt());
  }

  /** One line per job of a multi-job round: latency percentiles exist only per job. */
  private void printJob(int j, RoundSummary s) {
    say("Job %d: written %,d, duplicates %,d, lost %,d, steady %s rows/s, peak connections %d, live latency %s -> %s",
        j, s.written(), s.duplicates(), s.lost(), num(s.rowsPerSecond()), s.peakConnections(),
        s.liveP50LatencyMs() == null ? s.liveLatencyNote()
            : String.format(Locale.ROOT, "p50 %,d ms, p99 %,d ms", s.liveP50LatencyMs(), s.liveP99LatencyMs()),
        plan.jobDirectory(j).resolve("report.md"));
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
    if (signalled) {
      return;
    }
    System.out.println("[round] " + String.format(Locale.ROOT, format, args));
  }
}
