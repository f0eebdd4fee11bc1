package dev.ingestbench.contracts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads what a scenario run directory holds: its status markers and its results, for the runner and
 * the report alike.
 */
public final class ScenarioRunFiles {
  private ScenarioRunFiles() {}

  /** Every {@link StepStatus} in {@link RunFiles#STATUS_DIRECTORY}, in marker-name order. */
  public static List<StepStatus> steps(Path runDir) throws IOException {
    Path dir = runDir.resolve(RunFiles.STATUS_DIRECTORY);
    List<StepStatus> steps = new ArrayList<>();
    if (Files.isDirectory(dir)) {
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
          steps.add(RunJson.read(f, StepStatus.class));
        }
      }
    }
    return steps;
  }

  /** Every {@link ResultRecord} of {@link RunFiles#RESULTS}; none when the file is missing. */
  public static List<ResultRecord> results(Path runDir) throws IOException {
    Path file = runDir.resolve(RunFiles.RESULTS);
    List<ResultRecord> records = new ArrayList<>();
    if (Files.isRegularFile(file)) {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (!line.isBlank()) {
          records.add(RunJson.fromJson(line, ResultRecord.class));
        }
      }
    }
    return records;
  }
}
