package dev.ingestbench.contracts;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One Dataflow job a scenario run launched ({@link RunFiles#DATAFLOW_JOBS}): which part of the run
 * it was, its name and id (to find it in the console or with {@code gcloud dataflow jobs
 * describe}), and when it was launched and asked to stop. A resumed run reads these to cancel what
 * an earlier, killed attempt left running.
 *
 * @param role a scenario job's name, {@code backlog} or {@code live} (the publishers)
 * @param stage the stage that launched it
 * @param stoppedAt when the run asked Dataflow to stop it; null while it runs
 * @param finalState its last state seen, e.g. {@code JOB_STATE_CANCELLED}
 */
public record DataflowJobRecord(
    int segment,
    String role,
    String stage,
    @JsonProperty("job_name") String jobName,
    @JsonProperty("job_id") String jobId,
    @JsonProperty("launched_at") String launchedAt,
    @JsonProperty("stopped_at") String stoppedAt,
    @JsonProperty("final_state") String finalState) {

  public DataflowJobRecord stopped(String at, String state) {
    return new DataflowJobRecord(segment, role, stage, jobName, jobId, launchedAt, at, state);
  }
}
