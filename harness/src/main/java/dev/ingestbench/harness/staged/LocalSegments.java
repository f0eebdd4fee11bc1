package dev.ingestbench.harness.staged;

import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.process.ProcessLauncher;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The local target, a scenario's and a round's: it opens each segment of the run on this machine
 * ({@link LocalSegment}: the servers, the backlog or feed, one consumer JVM per job, the faults),
 * shaped as its {@link SegmentShape} says, and keeps the open one for what the run asks of it
 * afterwards (a server's death, the kills, the source a load test measures).
 */
public final class LocalSegments implements StageTarget {
  /** Where a segment keeps its servers' files, given the driver's directory for it. */
  @FunctionalInterface
  public interface Directory {
    Path of(Path segment) throws IOException;
  }

  private final ScenarioPlan plan;
  private final SegmentShape shape;
  private final LocalJobs jobs;
  private final PipelineRunner runner;
  private final String heap;
  private final ProcessLauncher launcher;
  private final Measures measures;
  private final Directory directory;

  /** The segment open now (the last one opened), or null before the first. */
  private volatile LocalSegment current;

  /**
   * @param measures what the driver's samples measure while a stage runs (a round: nothing, it is
   *     analysed afterwards)
   * @param directory where each segment keeps its files (a round: the top of --out)
   */
  public LocalSegments(
      ScenarioPlan plan,
      SegmentShape shape,
      LocalJobs jobs,
      PipelineRunner runner,
      String heap,
      ProcessLauncher launcher,
      Measures measures,
      Directory directory) {
    this.plan = plan;
    this.shape = shape;
    this.jobs = jobs;
    this.runner = runner;
    this.heap = heap;
    this.launcher = launcher;
    this.measures = measures;
    this.directory = directory;
  }

  @Override
  public Measures measures() {
    return measures;
  }

  /**
   * Kept before it starts: a server that dies while the segment starts (the backlog's publisher
   * then fails too) is the death {@link #death} names.
   */
  @Override
  public Segment open(int segmentNo, Path segment) throws Exception {
    current = new LocalSegment(plan, heap, shape, jobs, runner, launcher, directory.of(segment));
    return current.start();
  }

  /** The segment open now; null before the first. */
  LocalSegment current() {
    return current;
  }

  /** Consumers killed and restored so far in the open segment. */
  public int kills() {
    return current == null ? 0 : current.kills();
  }

  /** Why the run could not go on: a server died (read after the driver returned or failed). */
  public Optional<String> death() {
    return current == null ? Optional.empty() : current.death();
  }
}
