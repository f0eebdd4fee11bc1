package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.ScenarioRunFiles;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.contracts.StepStatus;
import dev.ingestbench.harness.spec.OutDirectory;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A scenario run's directory: what the run is ({@code run.json} and the scenario file as run), a
 * status marker per finished step, the results and samples appended as they are measured, and one
 * {@code segment-N} directory per (re)start with its processes' logs and files.
 *
 * <p>A marker is written only after the step's results are appended, so a run killed at any moment
 * leaves markers that a rerun can trust: a step without its marker is run again, and its partial
 * results from the killed attempt are dropped when it finishes ({@link #appendResults}).
 */
public final class RunDirectory {
  private final Path root;

  public RunDirectory(Path root) {
    this.root = root;
  }

  public Path root() {
    return root;
  }

  public Optional<ScenarioRun> existingRun() throws IOException {
    Path file = root.resolve(RunFiles.SCENARIO_RUN);
    return Files.isRegularFile(file)
        ? Optional.of(RunJson.read(file, ScenarioRun.class))
        : Optional.empty();
  }

  /** The files a run writes at the top of its directory; anything else there is not the run's. */
  private static final Set<String> RUN_FILES =
      Set.of(
          RunFiles.SCENARIO_RUN,
          RunFiles.SCENARIO,
          RunFiles.RESULTS,
          RunFiles.RESULTS + ".tmp",
          RunFiles.SCENARIO_SAMPLES,
          RunFiles.REPORT,
          RunFiles.DATAFLOW_JOBS,
          RunFiles.GCP_TIMELINE,
          RunFiles.GCP_MONITORING,
          RunFiles.GCP_DIAGNOSIS,
          "throughput.svg",
          "connections.svg",
          "iterations.svg");

  /** The directories a run writes: markers, segments, iterations and load-test stages. */
  private static final Pattern RUN_DIRECTORIES =
      Pattern.compile(RunFiles.STATUS_DIRECTORY + "|segment-\\d+|iterations|pubsub-load-.+");

  /**
   * Deletes what a previous run wrote (--restart), and only that: a directory without a run's
   * {@code run.json}, or holding anything a run does not write, is refused with nothing deleted.
   */
  public void clear() throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    if (!Files.isRegularFile(root.resolve(RunFiles.SCENARIO_RUN))) {
      throw new IllegalArgumentException(
          "--restart: "
              + root
              + " holds no "
              + RunFiles.SCENARIO_RUN
              + ", so it is not"
              + " a run directory and nothing was deleted; give an --out of its own, or an earlier run's directory");
    }
    List<Path> own = new ArrayList<>();
    List<String> foreign = new ArrayList<>();
    try (Stream<Path> top = Files.list(root)) {
      for (Path p : top.sorted().toList()) {
        String name = p.getFileName().toString();
        boolean ours =
            Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)
                ? RUN_DIRECTORIES.matcher(name).matches()
                : Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && RUN_FILES.contains(name);
        if (ours) {
          own.add(p);
        } else {
          foreign.add(name);
        }
      }
    }
    if (!foreign.isEmpty()) {
      throw new IllegalArgumentException(
          "--restart: "
              + root
              + " holds "
              + foreign.size()
              + " file(s) a run does not"
              + " write ("
              + String.join(", ", foreign.subList(0, Math.min(3, foreign.size())))
              + (foreign.size() > 3 ? ", ..." : "")
              + "); nothing was deleted. Move them away, or give another --out");
    }
    for (Path p : own) {
      OutDirectory.deleteTree(p);
    }
  }

  public void start(ScenarioRun run, Path scenarioFile) throws IOException {
    Files.createDirectories(root.resolve(RunFiles.STATUS_DIRECTORY));
    Files.copy(scenarioFile, root.resolve(RunFiles.SCENARIO), StandardCopyOption.REPLACE_EXISTING);
    RunJson.write(root.resolve(RunFiles.SCENARIO_RUN), run);
  }

  public boolean isDone(String step) {
    return Files.isRegularFile(marker(step));
  }

  public List<StepStatus> finishedSteps() throws IOException {
    return ScenarioRunFiles.steps(root);
  }

  /** Records a finished step: its results first, then its marker. */
  public void finish(StepStatus status, List<ResultRecord> results) throws IOException {
    appendResults(status, results);
    Path tmp = marker(status.step()).resolveSibling(status.step() + ".json.tmp");
    RunJson.write(tmp, status);
    Files.move(tmp, marker(status.step()), StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Appends {@code results}, first removing lines of the same step a killed attempt may have left
   * (a step's results are appended just before its marker, so at most one step can have them).
   */
  private void appendResults(StepStatus status, List<ResultRecord> results) throws IOException {
    replaceResults(
        r -> r.stage().equals(status.stage()) && r.iteration() == status.iteration(), results);
  }

  /**
   * Rewrites results.jsonl atomically without the records {@code drop} accepts, plus {@code add}.
   */
  public void replaceResults(Predicate<ResultRecord> drop, List<ResultRecord> add)
      throws IOException {
    Path file = root.resolve(RunFiles.RESULTS);
    List<ResultRecord> kept = new ArrayList<>();
    for (ResultRecord r : readResults()) {
      if (!drop.test(r)) {
        kept.add(r);
      }
    }
    kept.addAll(add);
    Path tmp = root.resolve(RunFiles.RESULTS + ".tmp");
    try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      for (ResultRecord r : kept) {
        w.write(RunJson.toJsonLine(r));
        w.write('\n');
      }
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  public List<ResultRecord> readResults() throws IOException {
    return ScenarioRunFiles.results(root);
  }

  /** The next segment's directory: {@code segment-1} on the first start, then 2, 3, ... */
  public int nextSegment() throws IOException {
    int n = 1;
    while (Files.exists(segment(n))) {
      n++;
    }
    Files.createDirectories(segment(n));
    return n;
  }

  public Path segment(int n) {
    return root.resolve("segment-" + n);
  }

  /** Appends samples as they are taken (flushed each time, so a kill keeps them). */
  public Writer samplesWriter() throws IOException {
    Path file = root.resolve(RunFiles.SCENARIO_SAMPLES);
    boolean fresh = !Files.exists(file);
    Writer w =
        Files.newBufferedWriter(
            file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    if (fresh) {
      w.write(ScenarioSample.header() + "\n");
      w.flush();
    }
    return w;
  }

  private Path marker(String step) {
    return root.resolve(RunFiles.STATUS_DIRECTORY).resolve(step + ".json");
  }
}
