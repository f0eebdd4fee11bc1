package dev.ingestbench.scenario;

import dev.ingestbench.contracts.job.JobSink;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * What a job writing into its own consumer's JVM ({@code sink: in-process}) cannot do: its rows
 * live in that JVM, so a stage that kills the consumer or starts the job a second time would count
 * a new, empty BigQuery; the emulator process's {@code limits} never reach it; and a {@code
 * find_max_rate} search reads every job's progress from the emulator process.
 */
final class InProcessSinkChecks {
  private final BiConsumer<String, String> problem;

  InProcessSinkChecks(BiConsumer<String, String> problem) {
    this.problem = problem;
  }

  void check(Scenario s, Map<String, JobConfig> jobs) {
    Set<String> inProcess = new HashSet<>();
    jobs.forEach(
        (name, job) -> {
          if (job.sink() == JobSink.IN_PROCESS) {
            inProcess.add(name);
          }
        });
    if (inProcess.isEmpty()) {
      return;
    }
    Scenario.Limits limits = s.limits();
    if (limits != null && limits.setsEmulatorLimits()) {
      String job = inProcess.stream().sorted().findFirst().orElseThrow();
      problem.accept(
          "jobs." + job + ".sink",
          "in-process writes to a BigQuery emulator inside the job's JVM, and the limits quota_*,"
              + " cell_quota_*, max_connections, max_request_bytes, tables_api_quota and"
              + " create_write_stream_* are set on the emulator process: drop them, or write to it"
              + " (sink: emulator)");
    }
    if (s.stages() != null) {
      stages(s.stages(), inProcess);
    }
  }

  private void stages(List<Scenario.Stage> stages, Set<String> inProcess) {
    Set<String> started = new HashSet<>();
    Set<String> running = new HashSet<>();
    for (int i = 0; i < stages.size(); i++) {
      Scenario.Stage st = stages.get(i);
      String key = "stages[" + i + "]";
      if (st.isMaxRateSearch()) {
        Object searched = st.findMaxRate().get("job");
        if (searched != null && inProcess.contains(searched.toString())) {
          problem.accept(
              key + "." + Scenario.Stage.FIND_MAX_RATE + ".job",
              searched
                  + " writes in-process (jobs."
                  + searched
                  + ".sink), and the search reads every job's progress from the BigQuery emulator"
                  + " process: search a job with sink: emulator");
        }
        continue;
      }
      if (st.isLoadTest()) {
        continue;
      }
      if (st.stopWith() != null && st.stopWith().equals("savepoint") && st.stop() != null) {
        firstOf(st.stop(), inProcess)
            .ifPresent(
                job ->
                    problem.accept(
                        key + "." + Scenario.Stage.STOP_WITH,
                        "saves "
                            + job
                            + ", which writes in-process (jobs."
                            + job
                            + ".sink) and cannot start again to restore it: its rows held in the"
                            + " savepoint would be lost; drain or cancel it, or give it sink:"
                            + " emulator"));
      }
      running.removeAll(st.stop() == null ? List.of() : st.stop());
      for (String job : st.start() == null ? List.<String>of() : st.start()) {
        if (inProcess.contains(job) && !started.add(job)) {
          problem.accept(
              key + ".start",
              job
                  + " writes in-process (jobs."
                  + job
                  + ".sink): the rows of its first start ended with that JVM, so a second start"
                  + " could not be verified; start it once, or give it sink: emulator");
        }
        running.add(job);
      }
      String kill =
          st.killConsumerAt() != null
              ? Scenario.Stage.KILL_CONSUMER_AT
              : st.crashEvery() != null ? Scenario.Stage.CRASH_EVERY : Scenario.Stage.SAVEPOINT_AT;
      if (st.killConsumerAt() != null || st.crashEvery() != null || st.savepointAt() != null) {
        firstOf(running, inProcess)
            .ifPresent(
                job ->
                    problem.accept(
                        key + "." + kill,
                        (kill.equals(Scenario.Stage.SAVEPOINT_AT)
                                ? "stops and restarts "
                                : "kills ")
                            + job
                            + ", which writes in-process (jobs."
                            + job
                            + ".sink): its rows would die with its JVM; give it sink: emulator,"
                            + " whose process outlives a killed consumer"));
      }
    }
  }

  /** The first of {@code jobs}, by name, that writes in-process. */
  private static java.util.Optional<String> firstOf(
      java.util.Collection<String> jobs, Set<String> inProcess) {
    return jobs.stream().filter(inProcess::contains).sorted().findFirst();
  }
}
