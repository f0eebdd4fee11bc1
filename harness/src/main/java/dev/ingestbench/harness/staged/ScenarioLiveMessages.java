package dev.ingestbench.harness.staged;

import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.harness.source.LiveMessages;
import dev.ingestbench.scenario.Durations;
import dev.ingestbench.scenario.PlannedStage;
import java.time.Duration;
import java.util.List;

/**
 * A scenario's live messages: published by this JVM from the segment's start while its stages run,
 * at the scenario's rate, stepped through a stage's {@code live_profile} while it runs.
 */
final class ScenarioLiveMessages implements SegmentPublishing {
  /**
   * How long the run waits, after its last stage, for the live publisher to publish what is left.
   */
  private static final Duration LIVE_FINISH_MAX = Duration.ofMinutes(10);

  private final LiveMessages live;

  /** The scenario's rate (1x of a profile). */
  private final double rate;

  ScenarioLiveMessages(LiveMessages live, double rate) {
    this.live = live;
    this.rate = rate;
  }

  @Override
  public void stageStarting(PlannedStage st) {
    live.stepThrough(st.liveProfile()); // none: back to the scenario's rate
    if (st.liveProfile() != null) {
      RunLog.say(
          "Stage %s steps the live rate through %s (1x = %s msg/s)",
          st.name(), st.liveProfile(), Numbers.rate(rate));
    }
  }

  /**
   * Waits for the live publisher to publish all it was asked to, so every job is judged on the same
   * count; still publishing then, it is stopped, and with no result file the jobs are reported as
   * not verified.
   */
  @Override
  public void awaitPublished(List<String> jobs) throws Exception {
    live.stepThrough(null); // a profile's steps end with its stage
    if (live.publishing()) {
      RunLog.say(
          "Waiting for the live messages to be published (max %s) before the jobs are verified",
          Durations.show(LIVE_FINISH_MAX));
    }
    live.finish(LIVE_FINISH_MAX);
  }

  @Override
  public void close() throws Exception {
    live.close();
  }
}
