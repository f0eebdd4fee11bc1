package dev.ingestbench.harness.round;

import dev.ingestbench.harness.process.ProcessLauncher;
import dev.ingestbench.harness.staged.LocalJobs;
import dev.ingestbench.harness.staged.LocalSegment;
import dev.ingestbench.harness.staged.StageTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where a round's jobs run: the {@link dev.ingestbench.harness.staged.StagedDriver}'s target for
 * the one stage a round is, one {@link LocalSegment} shaped as a round ({@link RoundShape}): the
 * Pub/Sub emulator (or Kafka broker) and the BigQuery emulator with their files at the top of
 * {@code --out}, the backlog before any job starts, one consumer JVM per job, the live messages
 * (published by this JVM) once every job has drained the backlog, the stage's faults, or the
 * max-rate search.
 *
 * <p>A round's consumers stop by themselves once they have accounted for every message (or at their
 * {@code --timeout}); what each wrote is its own {@code consumer_result.json}, verified row by row
 * by the local BigQuery.
 */
final class RoundTarget implements StageTarget {
  private final RoundSpec spec;
  private final RoundPlan plan;

  /** The round's one segment, once opened. */
  private volatile LocalSegment opened;

  /** Starts the publisher and the consumers (a test's scripted processes). */
  private final ProcessLauncher launcher;

  RoundTarget(RoundSpec spec, RoundPlan plan) {
    this(spec, plan, ProcessLauncher.SYSTEM);
  }

  /** As above, its publisher and consumers started by {@code launcher}. */
  RoundTarget(RoundSpec spec, RoundPlan plan, ProcessLauncher launcher) {
    this.spec = spec;
    this.plan = plan;
    this.launcher = launcher;
  }

  /** Consumers killed and restored so far. */
  int kills() {
    return opened == null ? 0 : opened.kills();
  }

  /** Why the round could not go on: a server died (read after the driver returned or failed). */
  Optional<String> death() {
    return opened == null ? Optional.empty() : opened.death();
  }

  /**
   * Nothing while the round runs: its figures are its own analysis of the per-second timeline
   * (steady phase, CPU, latency), in summary.json and report.md; a second, differently windowed
   * rate beside them would only disagree. Each consumer prints its progress as it goes. (Rows
   * appended and never made visible are said after the analysis, from what the BigQuery emulator
   * wrote as it stopped.)
   */
  @Override
  public Measures measures() {
    return Measures.NOTHING;
  }

  @Override
  public Segment open(int segmentNo, Path segment) throws Exception {
    // A round is one segment, and its files stay at the top of --out where a round has always kept
    // them.
    Files.deleteIfExists(segment);
    LocalJobs jobs = new LocalJobs(plan, spec.heap(), spec.runner(), launcher);
    opened =
        new LocalSegment(
            plan.stages(),
            spec.heap(),
            new RoundShape(spec, plan),
            jobs,
            spec.runner(),
            launcher,
            spec.out());
    return opened.start();
  }
}
