package dev.ingestbench.harness.stack;

import dev.ingestbench.harness.flink.FlinkClusterRunner;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.process.BigQueryEmulatorRest;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.process.ServerWatch;
import dev.ingestbench.harness.process.StartedResources;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The servers of a local round or scenario segment, started in one order for both: the CPU sampler
 * of every process, the watch that ends the run when a server dies, a Flink cluster when one is
 * asked for (first: a user's cluster that does not answer fails in seconds), the source (the
 * Pub/Sub emulator or a Kafka broker with the topic), and the sink (the BigQuery emulator) unless
 * the jobs write in-process. Every one is kept in the caller's {@link StartedResources}, so closing
 * those stops them newest first; the watch is closed before each server stops, which is not a
 * death.
 */
public final class LocalStack {
  /** The Google Cloud project every local server is addressed as (Pub/Sub paths, BigQuery). */
  public static final String PROJECT = "ingestbench-local";

  /** The table the jobs write in the local BigQuery. */
  public static final String TABLE = "ingestbench.taxi_rides";

  /**
   * What to start.
   *
   * @param dir where the servers' logs and the CPU records go
   * @param voice what the watch's death messages call the run: {@code round} or {@code run}
   * @param runner where the jobs' pipelines run: a Flink cluster to start or check first, or their
   *     own JVMs
   * @param source starts the source's server: the Pub/Sub emulator, or a Kafka broker with the
   *     topic
   * @param bigQueryEmulatorArgs the BigQuery emulator's flags, or null when the jobs write
   *     in-process
   */
  public record Spec(
      Path dir,
      String voice,
      PipelineRunner runner,
      LocalSource.Starter source,
      List<String> bigQueryEmulatorArgs) {}

  private final Spec spec;
  private final StartedResources started;
  private final Consumer<String> say;
  private final ProcessCpuSampler cpu;
  private final ServerWatch watch;
  private Optional<FlinkClusterRunner> flink = Optional.empty();
  private LocalSource source;
  private BigQueryEmulatorProcess sink;
  private Optional<BigQueryEmulatorRest> bigQueryRest = Optional.empty();

  /** What the watch saw when it was closed: a death must outlive the watch. */
  private volatile Optional<String> deathWhenClosed;

  /**
   * The CPU sampler and the watch, started and kept in {@code started}; {@link #start} starts the
   * servers. Apart, so that a caller holds the stack (and a death it sees) even when a server fails
   * to start.
   */
  public LocalStack(Spec spec, StartedResources started, Consumer<String> say) throws IOException {
    this.spec = spec;
    this.started = started;
    this.say = say;
    this.cpu = started.keep(new ProcessCpuSampler(spec.dir()));
    this.watch = new ServerWatch(spec.voice());
    started.keep(this::stopWatching); // if starting fails half-way
  }

  /** Starts the servers the spec asks for, each kept in the caller's resources. */
  public LocalStack start() throws Exception {
    flink = spec.runner().start(spec.dir(), cpu, watch, say);
    if (flink.isPresent()) {
      started.keep(flink.get());
      started.keep(this::stopWatching); // before the cluster stops, which is not a death
    }
    source = started.keep(spec.source().start(spec.dir(), cpu, watch, say));
    started.keep(this::stopWatching); // before the source stops, also when the sink cannot start
    if (spec.bigQueryEmulatorArgs() != null) {
      sink =
          started.keep(
              LocalSink.start(
                  spec.bigQueryEmulatorArgs(),
                  spec.dir().resolve("bigquery-emulator.log"),
                  cpu,
                  watch,
                  say));
      started.keep(this::stopWatching); // before the sink stops
      bigQueryRest = Optional.of(new BigQueryEmulatorRest(sink.address().rest()));
    }
    return this;
  }

  /** Every process's CPU, each second ({@code processes_cpu.csv}). */
  public ProcessCpuSampler cpu() {
    return cpu;
  }

  /** The watch of the servers; a process started later is stopped through it on a death. */
  public ServerWatch watch() {
    return watch;
  }

  /** The Flink cluster the jobs are submitted to; none when they run in their own JVMs. */
  public Optional<FlinkClusterRunner> flink() {
    return flink;
  }

  /** The source's {@code HOST:PORT}: the emulator's, or the broker's bootstrap servers. */
  public String host() {
    return source.host();
  }

  public long sourcePid() {
    return source.pid();
  }

  /** The BigQuery emulator's addresses; blank when the jobs write in-process. */
  public BigQueryEmulatorProcess.Address bigQuery() {
    return sink == null ? new BigQueryEmulatorProcess.Address("", "") : sink.address();
  }

  /** The BigQuery emulator's REST API (one client); none when the jobs write in-process. */
  public Optional<BigQueryEmulatorRest> bigQueryRest() {
    return bigQueryRest;
  }

  /** The BigQuery emulator's pid, or -1 when the jobs write in-process. */
  public long sinkPid() {
    return sink == null ? -1 : sink.pid();
  }

  /** Why the run cannot go on (a server died), also once the watch is closed; else empty. */
  public Optional<String> death() {
    Optional<String> closed = deathWhenClosed;
    return closed != null ? closed : watch.death();
  }

  /**
   * Stops watching, keeping what the watch saw (idempotent): keep it before stopping processes
   * whose stopping is not a death.
   */
  public void stopWatching() {
    if (deathWhenClosed == null) {
      deathWhenClosed = watch.death();
    }
    watch.close();
  }
}
