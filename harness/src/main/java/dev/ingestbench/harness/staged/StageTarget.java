package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.scenario.ScenarioPlan.PlannedStage;
import dev.ingestbench.verification.JobCounts;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

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

  /** One start of the run, from its first unfinished stage to its end or failure. */
  interface Segment extends AutoCloseable {
    /** Called as stage {@code st} begins, before its jobs are stopped and started. */
    default void stageStarting(PlannedStage st) throws Exception {}

    /**
     * The messages job {@code job} is to read: the plan's count, or, when the target feeds each job
     * as it reads, what it has been fed so far.
     */
    long messagesFor(String job);

    /** Starts {@code job} in {@code stage} (or the warm-up of a resumed run). */
    void startJob(String stage, String job) throws Exception;

    /**
     * Stops {@code job} at {@code stage} as {@code mode} says (null: the target's default); false
     * when it was not running in this segment.
     */
    boolean stopJob(String stage, String job, StopMode mode) throws Exception;

    /** Empty while the job runs; its exit code once it ended by itself (it had read everything). */
    OptionalInt ended(String job) throws Exception;

    /**
     * For a job that shares its source with other jobs (one Kafka consumer group, which reads each
     * message once for all of them): the distinct messages the group has accounted for, so that a
     * member with nothing left to read is seen as such although it accounted for only its share.
     * Empty for a job that reads its source alone.
     */
    default OptionalLong groupAccountedFor(String job) throws Exception {
      return OptionalLong.empty();
    }

    /** Distinct published messages the job has written or dead-lettered so far. */
    long accountedFor(String job) throws Exception;

    /** From now on, samples belong to {@code stage} and these running jobs. */
    void follow(String stage, List<String> jobs);

    /** The samples taken so far in this segment. */
    List<ScenarioSample> samples();

    /**
     * Called once a second while a stage runs, before its jobs are looked at: the target's own turn
     * (a fault it injects, a publisher it starts once the jobs caught up). Throws when the run
     * cannot go on.
     */
    default void tick() throws Exception {}

    /** Why sampling failed (a server stopped answering), or null. */
    String problem();

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

    /** Where to look when {@code job} fails. */
    Path log(String job);

    @Override
    void close() throws Exception;
  }
}
