package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.AccountedIndexes;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.harness.process.BigQueryEmulatorRest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Where a local segment's jobs write, read alike: the BigQuery emulator process the segment shares,
 * or, for a job with {@code sink: in-process}, the emulator inside its own consumer JVM, read
 * through the REST address that consumer announces while it runs and from the files it leaves when
 * it stops (its emulator ends with it).
 */
final class JobSinks {
  /** The emulator process the jobs share; none when every job writes in-process. */
  private final Optional<BigQueryEmulatorRest> shared;

  /** Each in-process job's consumer directory. */
  private final Map<String, Path> inProcess;

  /** Where each in-process job's consumer logs, named when it left nothing to read. */
  private final Function<String, Path> logs;

  /** Each in-process job's latest answer: kept for a second its consumer does not answer. */
  private final Map<String, EmulatorStatus> lastOwn = new ConcurrentHashMap<>();

  /**
   * @param shared the shared emulator's REST API; empty when every job writes in-process
   * @param inProcess each job writing in-process, to its consumer's directory
   * @param logs each job's consumer log
   */
  JobSinks(
      Optional<BigQueryEmulatorRest> shared,
      Map<String, Path> inProcess,
      Function<String, Path> logs) {
    this.shared = shared;
    this.inProcess = Map.copyOf(inProcess);
    this.logs = logs;
  }

  /** The shared emulator, or an error naming the job that should have written there. */
  private BigQueryEmulatorRest shared(String job) throws IOException {
    if (shared.isEmpty()) {
      throw new IOException(
          "job " + job + " writes to no BigQuery emulator process (every job writes in-process)");
    }
    return shared.get();
  }

  /**
   * Every job's status read now: the shared emulator's, with each in-process job's own added (its
   * latest answer when its consumer does not answer, as while it exits).
   */
  EmulatorStatus status() throws IOException {
    EmulatorStatus all = shared.isPresent() ? shared.get().status() : null;
    if (inProcess.isEmpty()) {
      return all;
    }
    List<EmulatorStatus.Job> jobs = new ArrayList<>();
    List<EmulatorStatus.Stream> streams = new ArrayList<>();
    long invisible = 0;
    for (String job : inProcess.keySet()) {
      EmulatorStatus own;
      try {
        own = own(job);
      } catch (IOException gone) {
        own = lastOwn.get(job);
      }
      if (own == null) {
        continue;
      }
      if (all == null) {
        all = own; // no shared emulator: the first job's status is the base
      } else {
        jobs.add(own.job(job));
        streams.addAll(own.streams() == null ? List.of() : own.streams());
        invisible += own.invisibleRows();
      }
    }
    if (all == null) {
      throw new IOException("no job's in-process BigQuery has answered yet");
    }
    return all.with(jobs, streams, invisible);
  }

  /**
   * {@code job}'s status read now; for an in-process job that stopped, from the files its consumer
   * left, or an error saying it left none.
   */
  EmulatorStatus.Job job(String job) throws IOException {
    if (!inProcess.containsKey(job)) {
      return shared(job).status().job(job);
    }
    EmulatorStatus own = own(job);
    return own == null ? EmulatorStatus.Job.empty(job) : own.job(job);
  }

  /** The event indexes {@code job} has written or dead-lettered, read now. */
  BitSet accounted(String job) throws IOException {
    Path dir = inProcess.get(job);
    if (dir == null) {
      return shared(job).accounted(job);
    }
    Path file = dir.resolve(RunFiles.ACCOUNTED_INDEXES);
    if (Files.exists(dir.resolve(RunFiles.BIGQUERY_EMULATOR))) {
      return RunJson.read(file, AccountedIndexes.class).indexes();
    }
    String rest = announced(job);
    if (rest == null) {
      return new BitSet();
    }
    try {
      return new BigQueryEmulatorRest(rest).accounted(job);
    } catch (IOException e) {
      if (Files.exists(dir.resolve(RunFiles.BIGQUERY_EMULATOR))) {
        return RunJson.read(file, AccountedIndexes.class).indexes(); // it stopped in between
      }
      throw leftNothing(job, e);
    }
  }

  /**
   * An in-process job's whole status: its files once its consumer stopped, else its REST; null
   * before its emulator listens (nothing written yet).
   */
  private EmulatorStatus own(String job) throws IOException {
    Path stopped = inProcess.get(job).resolve(RunFiles.BIGQUERY_EMULATOR);
    if (Files.exists(stopped)) {
      return RunJson.read(stopped, EmulatorStatus.class);
    }
    String rest = announced(job);
    if (rest == null) {
      return null;
    }
    try {
      EmulatorStatus now = new BigQueryEmulatorRest(rest).status();
      lastOwn.put(job, now);
      return now;
    } catch (IOException e) {
      if (Files.exists(stopped)) {
        return RunJson.read(stopped, EmulatorStatus.class); // it stopped in between
      }
      throw leftNothing(job, e);
    }
  }

  private String announced(String job) throws IOException {
    Path file = inProcess.get(job).resolve(RunFiles.IN_PROCESS_BIGQUERY);
    if (!Files.exists(file)) {
      return null;
    }
    return (String) RunJson.read(file, Map.class).get(RunFiles.IN_PROCESS_BIGQUERY_REST);
  }

  private IOException leftNothing(String job, IOException cause) {
    return new IOException(
        "job "
            + job
            + " writes in-process (sink: in-process), and its consumer no longer answers and left"
            + " no "
            + RunFiles.BIGQUERY_EMULATOR
            + " in "
            + inProcess.get(job)
            + ": what it wrote ended with its JVM ("
            + cause
            + "); see "
            + logs.apply(job),
        cause);
  }
}
