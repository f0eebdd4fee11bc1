package dev.ingestbench.dataflow;

import dev.ingestbench.contracts.DataflowJobRecord;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link RunFiles#DATAFLOW_JOBS} of a run directory: every job launched, rewritten (atomically)
 * whenever one is launched or stopped, so a killed run leaves an exact list of what may still run.
 */
final class DataflowJobLog {
  private final Path file;
  private final List<DataflowJobRecord> jobs = new ArrayList<>();

  DataflowJobLog(Path runDirectory) throws IOException {
    this.file = runDirectory.resolve(RunFiles.DATAFLOW_JOBS);
    if (Files.isRegularFile(file)) {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (!line.isBlank()) {
          jobs.add(RunJson.fromJson(line, DataflowJobRecord.class));
        }
      }
    }
  }

  synchronized List<DataflowJobRecord> all() {
    return List.copyOf(jobs);
  }

  /** Jobs not yet asked to stop. */
  synchronized List<DataflowJobRecord> unstopped() {
    return jobs.stream().filter(j -> j.stoppedAt() == null).toList();
  }

  synchronized Optional<DataflowJobRecord> latest(String role) {
    for (int k = jobs.size() - 1; k >= 0; k--) {
      if (jobs.get(k).role().equals(role)) {
        return Optional.of(jobs.get(k));
      }
    }
    return Optional.empty();
  }

  synchronized void add(DataflowJobRecord job) throws IOException {
    jobs.add(job);
    save();
  }

  synchronized void replace(DataflowJobRecord before, DataflowJobRecord after) throws IOException {
    int k = jobs.indexOf(before);
    if (k >= 0) {
      jobs.set(k, after);
    }
    save();
  }

  private void save() throws IOException {
    StringBuilder text = new StringBuilder();
    for (DataflowJobRecord j : jobs) {
      text.append(RunJson.toJsonLine(j)).append('\n');
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
