package dev.ingestbench.harness.source;

/**
 * Feeds a scaled-down local run's jobs as fast as they read, instead of a backlog published up
 * front that they would read in seconds: {@link PubsubFeed} (a topic per job), {@link KafkaFeed}
 * (one topic). What a job was fed until it stopped is what it is verified against.
 */
public interface SourceFeed extends AutoCloseable {
  /** Below this many unread messages a fed job is topped up... */
  long low();

  /** ...to this many. */
  long high();

  /** Starts feeding {@code job} (and fills up what it has waiting). */
  void start(String job) throws Exception;

  /** Stops feeding {@code job}. */
  void stop(String job);

  /**
   * {@code job}'s consumer has stopped and reads nothing more: from now on what was published for
   * it stays as it is (a topic the jobs share keeps growing for the others).
   */
  default void stopped(String job) {}

  /** Stops feeding every job: a stage that waits until the jobs drain what they have. */
  void stopAll();

  /**
   * Whether it feeds each job a given count and then no more (a backlog fed in tranches, which ends
   * by itself), rather than for as long as the job is fed.
   */
  boolean bounded();

  /** When the last tranche was acknowledged; empty before the first. */
  java.util.Optional<java.time.Instant> lastTopUp();

  /** What was published for {@code job} so far, or until it stopped. */
  long published(String job);

  /** Why feeding failed, or null. */
  Exception failure();

  /** What it fed, for the segment's {@code feed.json}. */
  Object result();
}
