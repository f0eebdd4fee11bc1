package dev.ingestbench.harness.round;

import dev.ingestbench.harness.process.StartedResources;
import dev.ingestbench.harness.stack.LocalStack;
import dev.ingestbench.harness.staged.LocalJobs;
import dev.ingestbench.harness.staged.RunLog;
import dev.ingestbench.harness.staged.SegmentPublishing;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * {@code round --find-max-rate} in the round's segment: the publisher measured alone before any
 * consumer starts, the probes ({@link RoundRateSearch}) once every consumer has, and, once the
 * search has ended and every consumer has accounted for what it published, each consumer asked to
 * stop (its standard input closed) so that it writes its results.
 */
final class RoundSearchRun implements SegmentPublishing {
  private final RoundSpec spec;
  private final RoundPlan plan;
  private final LocalStack stack;
  private final LocalJobs jobs;
  private final RoundShape shape;
  private final RoundRateSearch search;

  /** The search has ended and every consumer was asked to stop once it had written all. */
  private boolean ended;

  RoundSearchRun(
      RoundSpec spec, RoundPlan plan, LocalStack stack, LocalJobs jobs, RoundShape shape) {
    this.spec = spec;
    this.plan = plan;
    this.stack = stack;
    this.jobs = jobs;
    this.shape = shape;
    this.search = new RoundRateSearch(spec.findMaxRate(), RunLog.lines("round"));
  }

  /** Measures the publisher alone, before any consumer takes CPU; closed if that fails. */
  RoundSearchRun start() throws Exception {
    String host = stack.host();
    try {
      search.measurePublisher(
          shape.unreadTopic(host, RoundRateSearch.PUBLISHER_TOPIC), shape.generator());
      return this;
    } catch (Exception | Error e) {
      StartedResources.closeAfter(e, search);
      throw e;
    }
  }

  /** Every consumer has started: the probes begin. */
  @Override
  public void jobStarted(List<String> started) {
    if (started.size() < spec.jobs()) {
      return;
    }
    List<LongSupplier> pids = new ArrayList<>();
    for (String job : started) {
      pids.add(() -> jobs.pid(job));
    }
    search.start(
        new RoundRateSearch.Round(
            shape.roundTopic(stack),
            shape.topicPath(),
            shape.generator(),
            stack.bigQuery(),
            List.copyOf(started),
            pids,
            stack.sourcePid(),
            stack.sinkPid(),
            spec.out(),
            plan.runId,
            spec.messageSize()));
  }

  /**
   * Once the search has ended: each consumer, once it has accounted for everything published, is
   * asked to stop (its standard input closed), and writes its results.
   */
  @Override
  public void tick(List<String> started) throws IOException {
    if (search.failure() != null) {
      Exception e = search.failure();
      throw new IOException("the max-rate search failed: " + e.getMessage(), e);
    }
    if (!search.finished() || ended) {
      return;
    }
    long published = search.published();
    for (String job : started) {
      if (jobs.progress(job) < published && jobs.alive(job)) {
        return;
      }
    }
    ended = true;
    RoundShape.say(
        "Every job has written the search's %,d messages: stopping the consumers", published);
    for (String job : started) {
      if (jobs.alive(job)) {
        jobs.jvm(job).closeStdin();
      }
    }
  }

  /** Known once the search has ended; until then at least what was sent. */
  @Override
  public OptionalLong expected() {
    return OptionalLong.of(search.finished() ? search.published() : Math.max(1, search.handed()));
  }

  /** The probes were over before the consumers could stop. */
  @Override
  public void awaitPublished(List<String> jobs) {}

  @Override
  public void close() throws Exception {
    search.close();
  }
}
