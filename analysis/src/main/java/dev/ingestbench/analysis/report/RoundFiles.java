package dev.ingestbench.analysis.report;

/** File names inside a round's output directory: the contract between the round and its report. */
public final class RoundFiles {
  public static final String TIMELINE = "write_api_timeline.csv";
  public static final String TIMELINE_PER_SECOND = "write_api_timeline_per_second.csv";
  public static final String CONSUMER_SAMPLES = "consumer_samples.csv";
  public static final String CONSUMER_RESULT = "consumer_result.json";
  public static final String PUBLISHER_BACKLOG = "publisher_backlog.json";
  public static final String PUBLISHER_LIVE = "publisher_live.json";
  public static final String ROUND = "round.json";
  public static final String PROCESSES_CPU = "processes_cpu.csv";
  public static final String REPORT = "report.md";
  public static final String SUMMARY = "summary.json";
  public static final String THROUGHPUT_CHART = "throughput.svg";
  public static final String CPU_CHART = "cpu.svg";

  private RoundFiles() {}
}
