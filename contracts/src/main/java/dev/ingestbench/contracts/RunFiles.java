package dev.ingestbench.contracts;

/**
 * Names of the files in a run's output directory. The consumer, the publisher and the round write
 * them; the analysis reads them: both sides use these constants, so a rename cannot split them.
 */
public final class RunFiles {
  /**
   * The savepoint a local consumer stopped with ({@code stop_with: savepoint}): its path, one line.
   * The job's next start in the same run restores it.
   */
  public static final String SAVEPOINT = "savepoint.txt";

  /** Per-minute WRITE_API_TIMELINE rows, {@link TimelineColumns} header. */
  public static final String TIMELINE = "write_api_timeline.csv";

  /** The same rows per second. */
  public static final String TIMELINE_PER_SECOND = "write_api_timeline_per_second.csv";

  /** Per job and data table: first and last append, rows; {@link TableAppendColumns} header. */
  public static final String TABLES = "tables.csv";

  /** Open AppendRows streams per second, {@link ConnectionColumns} header. */
  public static final String CONNECTIONS = "concurrent_connections.csv";

  /** {@link EmulatorStatus} of the local BigQuery server at its end. */
  public static final String BIGQUERY_EMULATOR = "bigquery_emulator.json";

  /**
   * Where the BigQuery emulator inside a consumer's JVM ({@code --sink=in-process}) answers REST
   * ({@code {"rest": "http://HOST:PORT"}}), written by that consumer once it listens: how a
   * scenario samples a job that writes in-process while it runs.
   */
  public static final String IN_PROCESS_BIGQUERY = "bigquery_emulator_rest.json";

  /** The key of {@link #IN_PROCESS_BIGQUERY}'s one value. */
  public static final String IN_PROCESS_BIGQUERY_REST = "rest";

  /**
   * The event indexes an in-process job accounted for ({@link AccountedIndexes}), written when its
   * consumer stops: what a run needs to count what it left in its source once its emulator has
   * ended with it.
   */
  public static final String ACCOUNTED_INDEXES = "accounted_indexes.json";

  /** Per second of the consumer JVM, {@link ConsumerSampleColumns} header. */
  public static final String CONSUMER_SAMPLES = "consumer_samples.csv";

  /** {@link ConsumerResult}. */
  public static final String CONSUMER_RESULT = "consumer_result.json";

  /** {@link PublisherResult} of the backlog publisher. */
  public static final String PUBLISHER_BACKLOG = "publisher_backlog.json";

  /** {@link PublisherResult} of the live publisher. */
  public static final String PUBLISHER_LIVE = "publisher_live.json";

  /** {@code round --find-max-rate}'s probes and answer ({@link MaxRateResult}). */
  public static final String MAX_RATE_SEARCH = "max_rate_search.json";

  /** {@code round --live-profile}'s steps as they ran ({@link LiveProfileResult}). */
  public static final String LIVE_PROFILE = "live_profile.json";

  /**
   * A live phase at one rate cut in two halves by intended send time, each with every job's latency
   * ({@link LiveProfileResult}, two steps of 1x): whether the latency grew says whether the jobs
   * kept up.
   */
  public static final String LIVE_HALVES = "live_halves.json";

  /** Its chart: asked, published and written rate per probe. */
  public static final String MAX_RATE_CHART = "max_rate.svg";

  /** What a scaled-down local Pub/Sub run fed each job's own topic (harness PubsubFeed.Result). */
  public static final String FEED = "feed.json";

  /** {@link RoundSettings}. */
  public static final String ROUND = "round.json";

  /** Per second and process of a round, {@link ProcessCpuColumns} header. */
  public static final String PROCESSES_CPU = "processes_cpu.csv";

  /**
   * {@link MachineCpuColumns}: the whole machine's CPU per second (busy, steal), beside {@link
   * #PROCESSES_CPU}: what other work took.
   */
  public static final String MACHINE_CPU = "machine_cpu.csv";

  /** {@link CsvChecksums}: the run id and SHA-256 of every CSV file a round wrote. */
  public static final String CSV_CHECKSUMS = "csv_checksums.json";

  public static final String REPORT = "report.md";

  /** {@link RoundSummary}. */
  public static final String SUMMARY = "summary.json";

  public static final String THROUGHPUT_CHART = "throughput.svg";
  public static final String CPU_CHART = "cpu.svg";
  public static final String CONNECTIONS_CHART = "connections.svg";

  /** A scenario run: {@link ResultRecord}s, one JSON object per line. */
  public static final String RESULTS = "results.jsonl";

  /** A scenario run: per sampling interval and job, {@link ScenarioSampleColumns} header. */
  public static final String SCENARIO_SAMPLES = "scenario_samples.csv";

  /** A scenario run: the scenario file as it was run (a rerun must run the same one). */
  public static final String SCENARIO = "scenario.yaml";

  /** A scenario run: {@link ScenarioRun}. */
  public static final String SCENARIO_RUN = "run.json";

  /** A scenario run on Dataflow: every job it launched, {@link DataflowJobRecord} per line. */
  public static final String DATAFLOW_JOBS = "dataflow_jobs.jsonl";

  /** A scenario run on Dataflow: WRITE_API_TIMELINE of its tables over the run, read after it. */
  public static final String GCP_TIMELINE = "write_api_timeline.csv";

  /** A scenario run on Dataflow: Cloud Monitoring's per-minute series, read after it. */
  public static final String GCP_MONITORING = "monitoring.csv";

  /**
   * A scenario run on Dataflow: the timeline analysis's verdicts with the stages as phases
   * (verdict, evidence).
   */
  public static final String GCP_DIAGNOSIS = "gcp_diagnosis.json";

  /** A scenario run: one {@link StepStatus} file per finished stage or iteration. */
  public static final String STATUS_DIRECTORY = "status";

  /** A Kafka round or segment: the local broker's log directory (left behind by a crashed run). */
  public static final String KAFKA_DATA = "kafka-data";

  /** Suffix of dead-letter tables: rows there are dead letters, not written data. */
  public static final String DEAD_LETTER_TABLE_SUFFIX = "_dlq";

  private RunFiles() {}

  /**
   * The subdirectory of a multi-job round where job {@code job} keeps its files (its consumer's
   * results and its own write timeline); the round's directory holds what all jobs share.
   */
  public static String jobDirectory(String job) {
    // A job's name may come from a client's trace id: never a path separator, never "." or ".."
    // (the
    // round's own directory or its parent), never longer than a file name may be.
    String name = job.replaceAll("[^A-Za-z0-9._-]", "_");
    if (name.isEmpty() || name.chars().allMatch(c -> c == '.')) {
      name = "_" + name.replace('.', '_');
    }
    return name.length() > 100 ? name.substring(0, 100) : name;
  }

  /** True for the name of a dead-letter table. */
  public static boolean isDeadLetterTable(String tableId) {
    return tableId.endsWith(DEAD_LETTER_TABLE_SUFFIX);
  }
}
