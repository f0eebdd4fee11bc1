package dev.ingestbench.harness.staged;

import dev.ingestbench.harness.source.LiveMessages;
import dev.ingestbench.harness.source.SourceFeed;
import dev.ingestbench.harness.spec.MaxRateSpec;
import dev.ingestbench.harness.stack.LocalStack;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a local segment is made of around its servers, jobs and faults, which a scenario's segments
 * ({@link LocalServices}) and a round's have differently: where its servers keep their files, how
 * its source is made ready, its backlog, how its jobs' accounts are read and what this JVM
 * publishes. {@link LocalSegment} runs either.
 */
public interface SegmentShape {

  /** The prefix of the segment's lines: {@code run}, {@code round}. */
  String voice();

  /** The servers of {@code segment} (its directory). */
  LocalStack.Spec stack(Path segment);

  /**
   * Makes the source ready once the servers run, before anything is published and any job starts.
   */
  void prepare(String host) throws Exception;

  /** Where the segment's jobs read: the source it starts, makes ready, feeds or publishes to. */
  ScenarioSource source();

  /**
   * How many messages each job is fed ({@link Long#MAX_VALUE}: for as long as it runs); empty: the
   * source is {@link #prepare}d and the {@link #backlog} published instead.
   */
  default OptionalLong feedsUpTo() {
    return OptionalLong.empty();
  }

  /**
   * Feeds the jobs {@link #feedsUpTo} messages each as they read, making the source ready itself,
   * each job topped up by what its sink says it accounted for; called only when it feeds.
   *
   * @param segment the segment's directory (where in-process sinks leave their files)
   */
  default SourceFeed feed(LocalStack stack, Path segment) throws Exception {
    throw new IllegalStateException("this segment is not fed");
  }

  /** The feed has stopped and written what it fed: what the shape's own files need of it. */
  default void fed(SourceFeed feed) throws IOException {}

  /** Messages published before the jobs start, by {@link #backlogPublisherArgs}. */
  long backlog();

  /** The backlog publisher's flags. */
  List<String> backlogPublisherArgs(String host, Path segment);

  /** How the segment reads what its {@code jobs} accounted for; closed with the segment. */
  SinkAccounts accounts(LocalStack stack, Path segment, LocalJobs jobs) throws Exception;

  /**
   * What this JVM publishes while the segment's stages run, started once the backlog is published;
   * null: nothing. Closed with the segment.
   */
  SegmentPublishing publishing(LocalStack stack, Path segment, LocalJobs jobs) throws Exception;

  /** The faults its stages inject into {@code jobs}, speaking as the segment does. */
  SegmentFaults faults(SegmentFaults.Jobs jobs);

  /**
   * The live messages {@link #publishing} publishes from this JVM into the segment whose directory
   * is {@code segment}; empty: none. What it publishes and --dry-run says.
   */
  Optional<LivePublishing> live(Path segment);

  /**
   * The live messages of a segment.
   *
   * @param load what is published, at what rate
   * @param result where their publisher's result goes ({@code publisher_live.json})
   * @param afterBacklog published once every job has accounted for the backlog (a round's, which
   *     measures latency), not from the segment's start (a scenario's, which measures rates)
   * @param scheduleToSink each step of the schedule is told to the BigQuery emulator, which
   *     measures every live row against it
   */
  record LivePublishing(
      LiveMessages.Load load, Path result, boolean afterBacklog, boolean scheduleToSink) {}

  /** The max-rate search {@link #publishing} runs instead of live messages; empty: none. */
  default Optional<MaxRateSpec> search() {
    return Optional.empty();
  }

  /** --dry-run: how the jobs end after the last stage ({@code stop every job}). */
  String jobsEnd();

  /** The run's own files, written once it ended: {@code report.md}, {@code results.jsonl}. */
  List<String> writes();

  /** Called once the segment's consumers have stopped: what only they needed goes. */
  default void consumersStopped() throws IOException {}
}
