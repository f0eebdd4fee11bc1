package dev.ingestbench.pubsubload;

/** The files a load test writes into {@code --out}. */
public final class LoadFiles {
  public static final String SAMPLES = "samples.csv";
  public static final String SUMMARY = "summary.json";
  public static final String REPORT = "report.md";
  public static final String CHART = "throughput.svg";
  public static final String SWEEP_CHART = "sweep.svg";
  public static final String SWEEP_LATENCY_CHART = "sweep_latency.svg";
  public static final String GRID_TRIALS = "grid_trials.jsonl";
  public static final String GRID_PLAN = "grid.json";

  private LoadFiles() {}
}
