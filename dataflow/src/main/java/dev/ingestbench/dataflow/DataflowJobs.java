package dev.ingestbench.dataflow;

import com.google.api.client.googleapis.json.GoogleJsonResponseException;
import com.google.api.services.dataflow.Dataflow;
import com.google.api.services.dataflow.model.Job;
import com.google.api.services.dataflow.model.JobMetrics;
import com.google.api.services.dataflow.model.MetricUpdate;
import dev.ingestbench.contracts.StopMode;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Dataflow API calls a scenario makes: launch a Flex Template, read a job's state and counters,
 * and cancel or drain it. Errors carry the API's own message, which names what is missing (a
 * template spec, a permission, a quota).
 */
public final class DataflowJobs {
  public static final String RUNNING = "JOB_STATE_RUNNING";
  public static final String DONE = "JOB_STATE_DONE";

  /** States a job does not leave. */
  public static final Set<String> TERMINAL =
      Set.of(
          DONE,
          "JOB_STATE_FAILED",
          "JOB_STATE_CANCELLED",
          "JOB_STATE_UPDATED",
          "JOB_STATE_DRAINED");

  /**
   * The counter BigQueryIO's Storage Write steps (exactly-once and at-least-once) count appended
   * rows in.
   */
  public static final String RECORDS_APPENDED = "recordsAppended";

  /**
   * The consumer's counters: payload bytes read, messages dead-lettered before and at the write.
   */
  public static final String MESSAGE_BYTES = "message_bytes";

  public static final String DEAD_LETTERED = "dead_lettered_parse";
  public static final String REJECTED = "rows_rejected";

  /** The publisher's counter of messages Pub/Sub accepted. */
  public static final String MESSAGES_PUBLISHED = "messages_published";

  /** Dataflow's own metric: vCPU-seconds the job's workers have used so far. */
  public static final String TOTAL_VCPU_TIME = "TotalVcpuTime";

  private final Dataflow api;
  private final String project;
  private final String region;

  public DataflowJobs(Dataflow api, String project, String region) {
    this.api = api;
    this.project = project;
    this.region = region;
  }

  /** Launches {@code launch}; returns the new job's id. */
  public String launch(DataflowLaunch launch) throws IOException {
    try {
      Job job =
          api.projects()
              .locations()
              .flexTemplates()
              .launch(project, region, launch.request())
              .execute()
              .getJob();
      if (job == null || job.getId() == null) {
        throw new IOException(
            "Dataflow accepted the launch of " + launch.jobName() + " but returned no job id");
      }
      return job.getId();
    } catch (GoogleJsonResponseException e) {
      throw new IOException(
          "launching " + launch.jobName() + " from " + launch.template() + " failed: " + message(e),
          e);
    }
  }

  /** The job's current state, e.g. {@code JOB_STATE_RUNNING}. */
  public String state(String jobId) throws IOException {
    try {
      String state =
          api.projects().locations().jobs().get(project, region, jobId).execute().getCurrentState();
      return state == null ? "JOB_STATE_UNKNOWN" : state;
    } catch (GoogleJsonResponseException e) {
      throw new IOException("reading the state of job " + jobId + " failed: " + message(e), e);
    }
  }

  /** Asks Dataflow to cancel or drain the job; returns at once (the job ends on its own time). */
  public void stop(String jobId, StopMode mode) throws IOException {
    if (mode == StopMode.SAVEPOINT) {
      throw new IllegalArgumentException("Dataflow has no stop-with-savepoint: drain or cancel");
    }
    String requested = mode == StopMode.DRAIN ? "JOB_STATE_DRAINED" : "JOB_STATE_CANCELLED";
    try {
      api.projects()
          .locations()
          .jobs()
          .update(project, region, jobId, new Job().setRequestedState(requested))
          .execute();
    } catch (GoogleJsonResponseException e) {
      throw new IOException(
          "stopping job " + jobId + " (" + mode.flag() + ") failed: " + message(e), e);
    }
  }

  /**
   * The job's counters by name, summed over steps: committed values where the service has them,
   * else the tentative ones (a streaming job reports both).
   */
  public Map<String, Double> counters(String jobId) throws IOException {
    JobMetrics metrics;
    try {
      metrics = api.projects().locations().jobs().getMetrics(project, region, jobId).execute();
    } catch (GoogleJsonResponseException e) {
      throw new IOException("reading the counters of job " + jobId + " failed: " + message(e), e);
    }
    Map<String, Double> committed = new HashMap<>();
    Map<String, Double> tentative = new HashMap<>();
    List<MetricUpdate> updates = metrics.getMetrics() == null ? List.of() : metrics.getMetrics();
    for (MetricUpdate u : updates) {
      if (u.getName() == null || u.getName().getName() == null || u.getScalar() == null) {
        continue;
      }
      Map<String, String> context =
          u.getName().getContext() == null ? Map.of() : u.getName().getContext();
      double value = number(u.getScalar());
      (Boolean.parseBoolean(context.get("tentative")) ? tentative : committed)
          .merge(u.getName().getName(), value, Double::sum);
    }
    tentative.forEach(committed::putIfAbsent);
    return committed;
  }

  private static double number(Object scalar) {
    if (scalar instanceof Number n) {
      return n.doubleValue();
    }
    try {
      return new BigDecimal(String.valueOf(scalar)).doubleValue();
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static String message(GoogleJsonResponseException e) {
    return e.getDetails() != null && e.getDetails().getMessage() != null
        ? e.getStatusCode() + " " + e.getDetails().getMessage()
        : e.getMessage();
  }
}
