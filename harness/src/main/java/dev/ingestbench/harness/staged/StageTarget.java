package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.scenario.PlannedStage;
import dev.ingestbench.verification.JobCounts;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;

/**
 * Where a staged scenario's jobs run: everything {@link StagedDriver} needs of a target, and
 * nothing about how the stages are sequenced, measured or judged. A new target (a Flink cluster) is
 * one implementation of this interface; the driver does not change.
 */
public interface StageTarget {

  /**
   * Starts what a segment needs: the source and the sink, the backlog, the live publisher. Closing
   * the segment stops every process it started, also on failure.
   */
  Segment open(int segmentNo, Path segment) throws Exception;

  /** What this target's samples measure while a stage runs. */
  default Measures measures() {
    return Measures.EVERY_JOB_FIGURE;
  }

  /** What a target's samples measure, so that the driver records no figure it did not measure. */
  enum Measures {
    /** Each job's rows, bytes, CPU and connections. */
    EVERY_JOB_FIGURE,
    /**
     * Each job's rows, bytes and CPU; connections are counted per project only, and collected after
     * the run (Dataflow's Monitoring).
     */
    ALL_BUT_CONNECTIONS,
    /**
     * Nothing while the stages run: the target's figures are its own analysis afterwards (a round's
     * per-second timeline); the driver records no stage measures and prints no rates.
     */
    NOTHING
  }

  /**
   * A job at one tick.
   *
   * @param exit empty while the job runs; its consumer's exit code once it ended by itself (it had
   *     read everything, or reached its own timeout)
   * @param expected the messages the job is to read: the plan's count, or, when the target feeds
   *     each job as it reads, what it has been fed so far
   * @param accountedFor distinct published messages the job has written or dead-lettered: once it
   *     ended, its final count; while it runs, its latest sample's (0 on a target that measures
   *     nothing while it runs, whose jobs end by themselves), or its group's when {@code shared}
   * @param shared the job shares its source with other jobs (one Kafka consumer group, which reads
   *     each message once for all of them), and {@code accountedFor} is the distinct messages the
   *     group has accounted for: a member with nothing left to read is seen as such although it
   *     accounted for only its share
   * @param log where to look when the job fails
   */
  record JobReading(OptionalInt exit, long expected, long accountedFor, boolean shared, Path log) {}

  /** One start of the run, from its first unfinished stage to its end or failure. */
  interface Segment extends AutoCloseable {
    /**
     * Called as stage {@code st} begins (a stage that starts no job too), before its jobs are
     * stopped and started.
     */
    default void stageStarting(PlannedStage st) throws Exception {}

    /** Starts {@code job} in {@code stage} (or the warm-up of a resumed run). */
    void startJob(String stage, String job) throws Exception;

    /**
     * Stops {@code job} at {@code stage} as {@code mode} says (null: the target's default); false
     * when it was not running in this segment.
     */
    boolean stopJob(String stage, String job, StopMode mode) throws Exception;

    /**
     * Job {@code job} as it is now (read once per tick: it may ask a server); a job that ended is
     * read until the driver has seen its end.
     */
    JobReading read(String job) throws Exception;

    /** From now on, samples belong to {@code stage} and these running jobs. */
    void follow(String stage, List<String> jobs);

    /** The samples taken so far in this segment. */
    List<ScenarioSample> samples();

    /**
     * Called once a second while a stage runs, before its jobs are read: the target's own turn (a
     * fault it injects, a publisher it starts once the jobs caught up). Throws when the run cannot
     * go on (a server died or stopped answering), naming why.
     */
    default void tick() throws Exception {}

    /**
     * Returns once everything the run publishes has been published (or the publisher was stopped).
     */
    void awaitPublished() throws Exception;

    /**
     * A stopped job's figures: published, accounted for, duplicates, dead letters, what it left.
     */
    JobCounts count(String stage, String job, boolean exactlyOnce) throws Exception;

    /** One sentence on rows appended and never made visible, or null when there are none. */
    default String unfinishedStreams() throws Exception {
      return null;
    }

    @Override
    void close() throws Exception;
  }
}
