package dev.ingestbench.consumer.local;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Keeps the embedded Flink's checkpoint gauges of the job this JVM runs (how many checkpoints
 * completed, how long the last one took), so the consumer's sampler can write them each second
 * beside its CPU: the evidence of a pipeline waiting on its own checkpoints. Flink hands every
 * metric it registers to each configured reporter ({@link LocalFlinkConf} names this one); this one
 * keeps only the job's checkpoint gauges and never reports on a schedule.
 */
public final class CheckpointReporter implements MetricReporter {
  static final String COMPLETED = "numberOfCompletedCheckpoints";
  static final String LAST_DURATION = "lastCheckpointDuration";

  /**
   * The gauges by name, of the job this JVM runs now: a later job's replace an earlier's, and a
   * reporter that closes (its Flink stopping) takes its own away, so a test JVM that runs job after
   * job never reads a finished one's.
   */
  private static final Map<String, Gauge<?>> GAUGES = new ConcurrentHashMap<>();

  /** What this reporter put in {@link #GAUGES}. */
  private final Map<String, Gauge<?>> mine = new ConcurrentHashMap<>();

  /** The name {@link LocalFlinkConf} configures it under. */
  static final String CONFIG_KEY =
      "metrics.reporter.ingestbench-checkpoints.factory.class: " + Factory.class.getName();

  /** Found by Flink through {@code META-INF/services}. */
  public static final class Factory implements MetricReporterFactory {
    @Override
    public MetricReporter createMetricReporter(Properties properties) {
      return new CheckpointReporter();
    }
  }

  /** What the job's checkpoints had done by now. */
  record Checkpoints(long completed, long lastDurationMs) {}

  /** The job's checkpoints so far, or null before Flink registered them (or on another runner). */
  static @Nullable Checkpoints now() {
    Long completed = value(COMPLETED);
    Long last = value(LAST_DURATION);
    return completed == null || last == null ? null : new Checkpoints(completed, last);
  }

  private static @Nullable Long value(String name) {
    Gauge<?> gauge = GAUGES.get(name);
    if (gauge == null) {
      return null;
    }
    try {
      return gauge.getValue() instanceof Number n ? n.longValue() : null;
    } catch (RuntimeException e) {
      return null; // a gauge of a job that is stopping: no reading this second
    }
  }

  @Override
  public void open(MetricConfig config) {}

  @Override
  public void close() {
    mine.forEach(GAUGES::remove); // only where they are still this reporter's
    mine.clear();
  }

  @Override
  public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
    if ((name.equals(COMPLETED) || name.equals(LAST_DURATION)) && metric instanceof Gauge<?> g) {
      GAUGES.put(name, g);
      mine.put(name, g);
    }
  }

  @Override
  public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
    GAUGES.remove(name, metric);
    mine.remove(name, metric);
  }
}
