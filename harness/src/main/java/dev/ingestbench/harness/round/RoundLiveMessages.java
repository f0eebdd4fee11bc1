package dev.ingestbench.harness.round;

import dev.ingestbench.analysis.report.LiveLatencyGrowth;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.ProcessCpuColumns;
import dev.ingestbench.contracts.RateProfile;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.harness.process.BigQueryEmulatorRest;
import dev.ingestbench.harness.source.EventSender;
import dev.ingestbench.harness.source.LiveMessages;
import dev.ingestbench.harness.source.PacedPublisher;
import dev.ingestbench.harness.stack.LocalStack;
import dev.ingestbench.harness.staged.LocalJobs;
import dev.ingestbench.harness.staged.SegmentPublishing;
import dev.ingestbench.harness.staged.SegmentShape;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A round's live messages: published by this JVM once every job has accounted for the backlog, so
 * that they measure the pipeline's latency rather than time spent queueing behind the backlog; each
 * step of the schedule told to the local BigQuery, which measures every live row against it; with
 * {@code --live-profile}, each step's backlog and latency recorded ({@code live_profile.json}). Not
 * every message published is a failure of the round: the jobs would wait for them in vain.
 */
final class RoundLiveMessages implements SegmentPublishing {
  /** How long the last live messages may wait for their replies once every one was sent. */
  private static final Duration REPLIES_MAX = Duration.ofSeconds(30);

  private final RoundSpec spec;
  private final RoundPlan plan;
  private final LocalStack stack;
  private final LocalJobs jobs;
  private final EventSender.Opener sender;
  private final SegmentShape.LivePublishing published;
  private final TaxiRideGenerator generator;
  private final Consumer<String> say;

  private LiveMessages live;

  /** The local BigQuery's REST API (schedule, status, latency); none with an in-process sink. */
  private final Optional<BigQueryEmulatorRest> bigQuery;

  /** They will not go: a consumer stopped before the backlog was drained. */
  private boolean none;

  /** Every live message was published and has its reply: publisher_live.json is written. */
  private boolean finished;

  /**
   * With --live-profile, once a second while they are published: the time and the fewest messages
   * any job had accounted for (the local BigQuery's status), for each step's backlog.
   */
  private final List<long[]> progress = new ArrayList<>();

  /**
   * @param sender opens a client to the round's topic
   * @param published what is published, and where its result goes
   */
  RoundLiveMessages(
      RoundSpec spec,
      RoundPlan plan,
      LocalStack stack,
      LocalJobs jobs,
      EventSender.Opener sender,
      SegmentShape.LivePublishing published,
      TaxiRideGenerator generator,
      Consumer<String> say) {
    this.spec = spec;
    this.plan = plan;
    this.stack = stack;
    this.jobs = jobs;
    this.sender = sender;
    this.published = published;
    this.generator = generator;
    this.say = say;
    this.bigQuery = stack.bigQueryRest();
  }

  /**
   * Once a tick, when every job has started: records a profile's progress, starts the messages once
   * every job has drained the backlog, and writes their result when every one is answered; throws
   * when they could not all be published.
   */
  @Override
  public void tick(List<String> started) throws Exception {
    if (started.size() < spec.jobs()) {
      return;
    }
    if (live != null && recordsProfile()) {
      // Read from the local BigQuery itself: the consumers' progress lines lag by up to a second.
      EmulatorStatus status = bigQuery.get().status();
      long fewest = Long.MAX_VALUE;
      for (String job : started) {
        fewest = Math.min(fewest, status.job(job).accountedFor());
      }
      progress.add(new long[] {System.currentTimeMillis(), fewest});
    }
    if (plan.liveMessages() == 0 || none || finished) {
      return;
    }
    if (live == null) {
      startOnceDrained(started);
    } else if (!live.publishing()) {
      finish(); // every message answered, or a failure: the jobs would wait in vain
    }
  }

  /**
   * A half shorter than this has too few whole seconds of latency to compare: the analysis judges
   * halves of {@link LiveLatencyGrowth#MIN_HALF_SECONDS} whole seconds or more, and a step's window
   * may lose a part of a second at its edge.
   */
  private static final long HALF_MIN_SECONDS = LiveLatencyGrowth.MIN_HALF_SECONDS + 1;

  private boolean recordsProfile() {
    return spec.liveProfile() != null && bigQuery.isPresent();
  }

  private void startOnceDrained(List<String> started) throws IOException {
    long backlog = plan.backlogMessages();
    for (String job : started) {
      long done = jobs.progress(job);
      if (done >= backlog) {
        continue;
      }
      if (!jobs.alive(job)) {
        say.accept(
            String.format(
                Locale.ROOT,
                "The %s did not drain the backlog (%,d of %,d accounted for): no live messages"
                    + " published",
                plan.processName(job),
                done,
                backlog));
        none = true;
      }
      return;
    }
    say.accept(
        String.format(
            Locale.ROOT,
            "Backlog drained: publishing %,d live messages at %,.0f msg/s",
            spec.liveMessages(),
            spec.liveRate()));
    stack.cpu().watch(ProcessCpuColumns.SELF_PUBLISHING_LIVE, ProcessHandle.current().pid());
    // As the segment's shape says (--dry-run prints it): an in-process sink has no schedule to
    // keep.
    PacedPublisher.ScheduleSink schedule =
        published.scheduleToSink() ? bigQuery.orElseThrow()::schedule : step -> {};
    live =
        new LiveMessages(
            sender.open(), // last: nothing that can fail comes after it
            generator,
            schedule,
            published.load(),
            published.result(),
            plan.runId,
            say);
  }

  /** Writes the result; throws when not every message was published. */
  private void finish() throws Exception {
    // The consumers wait for every live message: one the source refused would leave them waiting
    // until their --timeout.
    if (!live.finish(REPLIES_MAX, true)) {
      throw new IOException(
          "the live messages were not all published; the jobs cannot account for them");
    }
    finished = true;
  }

  /**
   * Once the jobs have drained (they were waiting for the live messages): every message must have
   * been published; with a profile, each step is recorded.
   */
  @Override
  public void awaitPublished(List<String> jobs) throws Exception {
    if (live == null) {
      return;
    }
    if (!finished && live.publishing()) {
      live.close();
      throw new IOException(
          String.format(
              Locale.ROOT,
              "the live messages were not all published within --timeout %d s (%,d of %,d"
                  + " acknowledged)",
              spec.timeoutSeconds(),
              live.acknowledged(),
              plan.liveMessages()));
    }
    if (!finished) {
      finish();
    }
    if (recordsProfile()) {
      record(jobs, spec.liveProfile(), RunFiles.LIVE_PROFILE);
    } else if (recordsHalves()) {
      // The first second (the publisher starting, the jobs' readers waking after the drain) is a
      // step of its own, left out; the rest in two halves.
      long half = (long) Math.floor((plan.liveMessages() / spec.liveRate() - 1) / 2);
      if (half >= HALF_MIN_SECONDS) {
        try {
          record(
              jobs,
              RateProfile.parse("--live-profile", "1x:1s,1x:" + half + "s,1x:" + half + "s"),
              RunFiles.LIVE_HALVES);
        } catch (IOException e) {
          // Only the live verdict reads it: a round whose messages were all accounted for is not
          // failed for want of it (the verdict then reads the rows' rate).
          RoundShape.say(
              "The live phase's latency by half could not be read from the local BigQuery (%s):"
                  + " its verdict reads the rows' rate instead",
              e.getMessage());
        }
      }
    }
  }

  /** Each step of {@code profile}'s window and every job's latency in it, into {@code file}. */
  private void record(List<String> jobs, RateProfile profile, String file) throws IOException {
    LiveProfileRecord.write(
        bigQuery.get(),
        profile,
        spec.liveRate(),
        plan.backlogMessages(),
        jobs,
        progress,
        plan.runId,
        spec.out(),
        file);
  }

  /**
   * A live phase at one rate, into the local BigQuery: its two halves' latency are recorded, so the
   * analysis can tell whether it grew (a job falling behind has a growing latency).
   */
  private boolean recordsHalves() {
    return spec.liveProfile() == null && bigQuery.isPresent() && spec.liveRate() > 0;
  }

  @Override
  public void close() throws Exception {
    if (live != null) {
      live.close();
    }
  }
}
