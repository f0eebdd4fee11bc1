package dev.ingestbench.scenario;

import java.nio.file.Path;
import java.util.List;

/** A scenario file that cannot run: every problem, each naming the key and the fix. */
public final class ScenarioException extends Exception {
  private final List<String> problems;

  ScenarioException(Path file, List<String> problems) {
    super(file + ":\n  - " + String.join("\n  - ", problems));
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }
}
