package dev.ingestbench.harness.ab;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.stats.PairedRatio;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every figure an A/B comparison measured (written as {@code ab.json}, so each ratio can be checked
 * against the runs it came from), and its report: per measure and figure, both builds' figures pair
 * by pair and the ratio with its confidence interval ({@link PairedRatio}).
 *
 * @param baseline the baseline's commit id
 * @param candidate what the other build is: {@code the working tree at COMMIT} (with changes, or
 *     not)
 * @param machine this machine, as the runs' reports name it
 * @param runs every run, in the order it ran
 * @param measureArgs what every run's command had added ({@code ab --measure-arg}); empty: none
 */
public record AbFigures(
    String baseline, String candidate, String machine, List<Run> runs, List<String> measureArgs) {
  /** The build a run used. */
  public enum Build {
    @JsonProperty("baseline")
    BASELINE,
    @JsonProperty("candidate")
    CANDIDATE
  }

  /**
   * One run of one build.
   *
   * @param pair 1-based
   * @param build which build
   * @param measure {@link AbMeasure#word()}
   * @param seconds how long it took, start to exit
   * @param figures its figures by name
   * @param out where it wrote its files
   */
  public record Run(
      int pair,
      Build build,
      String measure,
      double seconds,
      Map<String, Double> figures,
      String out) {}

  public AbFigures {
    runs = List.copyOf(runs);
    measureArgs = measureArgs == null ? List.of() : List.copyOf(measureArgs);
  }

  /** The report: what was compared, how, and each figure's ratio. */
  public Document report() {
    Document doc = new Document().heading(1, "A/B: the working tree against " + shortId(baseline));
    int pairs = runs.stream().mapToInt(Run::pair).max().orElse(0);
    doc.paragraph(
        "Baseline: "
            + baseline
            + ". Candidate: "
            + candidate
            + ". Machine: "
            + machine
            + ". "
            + (measureArgs.isEmpty()
                ? ""
                : "Every run with `" + String.join(" ", measureArgs) + "`. ")
            + pairs
            + " pair(s), each build once per pair, in alternating order (baseline first in odd"
            + " pairs), so that the machine's drift between pairs cancels. A ratio is candidate /"
            + " baseline (above 1: the candidate is higher); its interval is the 95% CI of the"
            + " pairs' geometric mean ratio. Figures of other days are not comparable: only the"
            + " ratio is.");
    Table t =
        Table.of(
            Table.Column.text("Measure"),
            Table.Column.text("Figure"),
            Table.Column.number("Baseline, per pair"),
            Table.Column.number("Candidate, per pair"),
            Table.Column.text("Candidate / baseline"));
    for (String measure : measures()) {
      for (String figure : figureNames(measure)) {
        List<Double> base = values(measure, figure, Build.BASELINE);
        List<Double> cand = values(measure, figure, Build.CANDIDATE);
        if (base.size() != cand.size() || base.size() < 2) {
          // Only whole pairs count, and an interval needs two: a figure one build or one run did
          // not record (the JIT's seconds of a baseline from before them) is left out.
          continue;
        }
        t.row(measure, figure, join(base), join(cand), PairedRatio.of(base, cand).describe());
      }
    }
    return doc.table(t);
  }

  private Set<String> measures() {
    Set<String> m = new LinkedHashSet<>();
    runs.forEach(r -> m.add(r.measure()));
    return m;
  }

  private Set<String> figureNames(String measure) {
    Set<String> names = new LinkedHashSet<>();
    runs.stream()
        .filter(r -> r.measure().equals(measure))
        .forEach(r -> names.addAll(r.figures().keySet()));
    return names;
  }

  /** {@code figure} of {@code build}'s runs of {@code measure}, by pair, whole pairs only. */
  private List<Double> values(String measure, String figure, Build build) {
    Map<Integer, Map<Build, Double>> byPair = new LinkedHashMap<>();
    for (Run r : runs) {
      Double v = r.figures().get(figure);
      if (r.measure().equals(measure) && v != null) {
        byPair.computeIfAbsent(r.pair(), p -> new LinkedHashMap<>()).put(r.build(), v);
      }
    }
    List<Double> out = new ArrayList<>();
    byPair.values().stream().filter(m -> m.size() == 2).forEach(m -> out.add(m.get(build)));
    return out;
  }

  private static String join(List<Double> values) {
    List<String> cells = new ArrayList<>();
    values.forEach(v -> cells.add(Numbers.rate(v))); // a share (0.16) keeps its decimals
    return String.join(", ", cells);
  }

  private static String shortId(String commit) {
    return commit.length() > 12 ? commit.substring(0, 12) : commit;
  }
}
