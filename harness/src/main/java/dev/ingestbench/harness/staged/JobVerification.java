package dev.ingestbench.harness.staged;

import dev.ingestbench.analysis.scenario.ResultRecords;
import dev.ingestbench.contracts.ResultLabel;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.scenario.PlannedStage;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.verification.Finding;
import dev.ingestbench.verification.JobCounts;
import dev.ingestbench.verification.Verdict;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The end of a segment, once every job has stopped: each job that ran in it counted by the target,
 * judged by the run's {@link Verdict} and written as its verification records (published, accounted
 * for, duplicates, dead letters, left in its source, lost), with a line for each.
 */
final class JobVerification {
  private final ScenarioPlan plan;
  private final RunDirectory dir;
  private final ScenarioRun run;
  private final Ticker ticker;
  private final Map<String, Map<String, String>> labels;
  private final Verdict verdict;
  private final Consumer<String> say;

  /**
   * @param labels every job's settings; {@code write_method} decides whether duplicates fail it
   * @param say prints a line as the run does
   */
  JobVerification(
      ScenarioPlan plan,
      RunDirectory dir,
      ScenarioRun run,
      Ticker ticker,
      Map<String, Map<String, String>> labels,
      Verdict verdict,
      Consumer<String> say) {
    this.plan = plan;
    this.dir = dir;
    this.run = run;
    this.ticker = ticker;
    this.labels = labels;
    this.verdict = verdict;
    this.say = say;
  }

  /**
   * Every job that ran in this segment, judged once all have stopped, with the last stage it ran
   * in: published, accounted for, left in its source (read), lost. A job that ran only in an
   * earlier, interrupted segment cannot be judged any more (its servers are gone).
   */
  void verify(StageTarget.Segment segment, Set<String> stopped) throws Exception {
    boolean lost = false;
    for (String job : stopped) {
      String stage = lastStage(job);
      JobCounts counts =
          segment.count(
              stage,
              job,
              "exactly-once".equals(labels.get(job).get(ResultLabel.WRITE_METHOD.key())));
      lost |= verdict.judge(counts).stream().anyMatch(f -> f.kind() == Finding.Kind.LOST);
      ResultRecords records =
          new ResultRecords(
              new ResultRecords.Step(
                  run.runId(), run.scenario(), run.target(), 1, stage, ticker.now().toString()));
      records.verification(
          job,
          counts.published(),
          counts.accountedFor(),
          counts.duplicates(),
          counts.sourceDuplicates(),
          // BigQuery itself checks no row's table: only the local BigQuery's count is one.
          "bigquery".equals(labels.get(job).get(ResultLabel.SINK.key()))
              ? null
              : counts.misrouted(),
          counts.deadLettered(),
          counts.left(),
          counts.unverified() == null ? counts.lost() : null,
          labels.get(job));
      dir.replaceResults(
          r ->
              r.stage().equals(stage)
                  && r.job().equals(job)
                  && r.iteration() == 1
                  && ResultRecords.VERIFICATION_METRICS.contains(r.metric()),
          records.records());
      say(
          "Job %s (last stage %s): published %,d, accounted for %,d, duplicates %,d, source"
              + " duplicates %,d, dead-lettered %,d, left %s, lost %s",
          job,
          stage,
          counts.published(),
          counts.accountedFor(),
          counts.duplicates(),
          counts.sourceDuplicates(),
          counts.deadLettered(),
          counts.left() == null ? "not counted" : String.format(Locale.ROOT, "%,d", counts.left()),
          counts.unverified() == null
              ? String.format(Locale.ROOT, "%,d", counts.lost())
              : "not known");
    }
    for (String job : plan.stagedJobs()) {
      if (!stopped.contains(job)) {
        verdict.add(
            new Finding(
                lastStage(job),
                job,
                Finding.Kind.UNVERIFIED,
                "it ran only in an earlier segment, which"
                    + " was interrupted before its jobs were verified (that segment's servers are gone); --restart runs"
                    + " the scenario again from the start"));
      }
    }
    String unfinished = lost ? segment.unfinishedStreams() : null;
    if (unfinished != null) {
      say(
          "%s: under exactly-once, rows a job had appended and not yet flushed when it stopped are lost with it,"
              + " although their messages were acknowledged (docs/scenarios.md, 'Stopping a job')",
          unfinished);
    }
  }

  /** The last stage {@code job} runs in. */
  private String lastStage(String job) {
    String last = null;
    for (PlannedStage st : plan.stages()) {
      if (st.running().contains(job)) {
        last = st.name();
      }
    }
    return last;
  }

  private void say(String format, Object... args) {
    say.accept(String.format(Locale.ROOT, format, args));
  }
}
