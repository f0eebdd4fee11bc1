package dev.ingestbench.harness.staged;

import dev.ingestbench.scenario.PlannedStage;
import java.util.List;
import java.util.OptionalLong;

/**
 * What this JVM publishes into a local segment's source while its stages run: a scenario's live
 * messages from the segment's start, a round's once its jobs drained the backlog, or a round's
 * max-rate search's probes.
 */
public interface SegmentPublishing extends AutoCloseable {

  /** Stage {@code st} begins (its live rate may step). */
  default void stageStarting(PlannedStage st) {}

  /** A job has started; {@code started} are the segment's jobs started so far, in order. */
  default void jobStarted(List<String> started) throws Exception {}

  /**
   * Once a tick, after the faults; {@code started} are the segment's jobs started so far. Throws
   * when what it publishes cannot go on.
   */
  default void tick(List<String> started) throws Exception {}

  /** The messages each job is to read when the plan does not know (a search's), else empty. */
  default OptionalLong expected() {
    return OptionalLong.empty();
  }

  /** Returns once everything is published, or what could not be is stopped. */
  void awaitPublished(List<String> jobs) throws Exception;
}
