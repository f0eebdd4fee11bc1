package dev.ingestbench.harness.staged;

import dev.ingestbench.harness.process.ConsumerProcesses;
import dev.ingestbench.harness.spec.ConsumerSpec;
import java.nio.file.Path;

/**
 * What a local run's consumers are, one per job: each one's {@link ConsumerSpec} and where its
 * process logs. A scenario's ({@link ScenarioConsumers}) keep their files in the segment and are
 * named by their jobs; a round's keep theirs at the top of its {@code --out}, named {@code
 * consumer} or {@code consumer-J}. {@link LocalJobs} starts, restarts and stops them alike.
 */
public interface ConsumerPlan {
  /** Job {@code job}'s consumer as it runs in {@code segment}. */
  ConsumerSpec consumer(String job, Path segment);

  /** The process name of job {@code job}'s consumer: its log's name and its CPU series'. */
  String processName(String job);

  /** Where the consumers of {@code segment} log. */
  Path logs(Path segment);

  /** Job {@code job}'s consumer log in {@code segment}, the running life's. */
  default Path log(String job, Path segment) {
    return ConsumerProcesses.log(logs(segment), processName(job));
  }

  /** How the run's lines about its consumers begin: {@code run}, a round's {@code round}. */
  default String voice() {
    return "run";
  }
}
