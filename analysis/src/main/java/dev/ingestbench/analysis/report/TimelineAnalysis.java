package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.diagnosis.Diagnoser;
import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.analysis.diagnosis.WriterEvidence;
import dev.ingestbench.analysis.model.Timeline;
import dev.ingestbench.analysis.model.TimelineRow;
import dev.ingestbench.analysis.phases.JobWindows;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.phases.PhaseSpec;
import dev.ingestbench.analysis.stats.Comparison;
import dev.ingestbench.analysis.stats.PhaseSummary;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * A WRITE_API_TIMELINE (from a file or BigQuery) analysed per minute: phases (given or detected),
 * their summaries, every pairwise comparison and the diagnosis.
 *
 * @param allDetectedPhases every detected phase of every window (ramp-up, levels, bursts, drain),
 *     for the per-minute table's phase column, whether or not --phase was given
 * @param levelChanges the boundaries between the detected phases and the transients inside them,
 *     with their evidence (whether or not --phase was given)
 * @param tableRows the table's row count as the user knows it (--table-rows), 0 when not given
 * @param writers each phase's writers: {@code --jobs-in}, a per-job series, or estimated from the
 *     level ratios of a window's levels (see {@link WriterEvidence})
 * @param writerSources what gave each phase's writer count
 */
public record TimelineAnalysis(
    Timeline perMinute,
    List<PhaseSummary> phases,
    List<Comparison> comparisons,
    List<Verdict> diagnosis,
    boolean phasesGiven,
    Map<Instant, Double> vcpuSeconds,
    int vcpus,
    Map<String, Integer> writers,
    Map<String, String> writerSources,
    long tableRows,
    List<Phase> allDetectedPhases,
    List<LevelChange> levelChanges) {

  public static TimelineAnalysis of(
      List<TimelineRow> rows,
      Map<Instant, Double> vcpuSeconds,
      int vcpus,
      List<PhaseSpec> specs,
      Diagnoser.Topology topology) {
    requireSpan(rows);
    Timeline perMinute = Timeline.of(rows, 60, Timeline.dataTables());
    if (perMinute.isEmpty()) {
      throw new IllegalArgumentException(
          "the timeline has no rows for data tables: nothing to analyse");
    }
    List<Phase> detected = JobWindows.detect(perMinute, topology.quotaMbPerSecond());
    List<Phase> phases = specs.isEmpty() ? steadyPhases(detected) : given(perMinute, specs);
    List<PhaseSummary> summaries = new ArrayList<>();
    for (Phase p : phases) {
      summaries.add(
          PhaseSummary.of(p, perMinute.slice(p.fromIndex(), p.toIndex()), vcpuSeconds, vcpus));
    }
    List<Comparison> comparisons = new ArrayList<>();
    for (int i = 0; i < summaries.size(); i++) {
      for (int j = i + 1; j < summaries.size(); j++) {
        comparisons.add(Comparison.of(summaries.get(i), summaries.get(j)));
      }
    }
    WriterEvidence writers = Diagnoser.writers(summaries, topology);
    return new TimelineAnalysis(
        perMinute,
        summaries,
        comparisons,
        Diagnoser.diagnose(summaries, perMinute, topology),
        !specs.isEmpty(),
        vcpuSeconds,
        vcpus,
        writers.counts(),
        writers.sources(),
        0,
        detected,
        LevelChange.find(detected, perMinute));
  }

  /** The longest timeline analysed at once: a month of minutes. */
  public static final Duration MAX_SPAN = Duration.ofDays(31);

  /**
   * One stray timestamp (a {@code 0} among 2026's rows) would make decades of empty minutes:
   * refused, naming it, before any bucket is made.
   */
  public static void requireSpan(List<TimelineRow> rows) {
    Instant first = rows.stream().map(TimelineRow::start).min(Instant::compareTo).orElse(null);
    Instant last = rows.stream().map(TimelineRow::start).max(Instant::compareTo).orElse(null);
    if (first == null || Duration.between(first, last).compareTo(MAX_SPAN) <= 0) {
      return;
    }
    // Only a timeline that is refused pays for sorting its timestamps, to name the stray one.
    TreeSet<Instant> times = new TreeSet<>();
    rows.forEach(r -> times.add(r.start()));
    Instant median = times.stream().skip(times.size() / 2).findFirst().orElseThrow();
    Instant far =
        Duration.between(times.first(), median).compareTo(Duration.between(median, times.last()))
                > 0
            ? times.first()
            : times.last();
    throw new IllegalArgumentException(
        String.format(
            Locale.ROOT,
            "the timeline runs from %s to %s, more than"
                + " the %d days analysed at once; %s is far from the rest (the middle of its timestamps is %s): fix or remove"
                + " the rows with that start_timestamp, or export a shorter window",
            times.first(),
            times.last(),
            MAX_SPAN.toDays(),
            far,
            median));
  }

  /** The same analysis, compared with a table of {@code rows} rows (--table-rows). */
  public TimelineAnalysis withTableRows(long rows) {
    return new TimelineAnalysis(
        perMinute,
        phases,
        comparisons,
        diagnosis,
        phasesGiven,
        vcpuSeconds,
        vcpus,
        writers,
        writerSources,
        rows,
        allDetectedPhases,
        levelChanges);
  }

  /** Rows WRITE_API_TIMELINE counted as appended to data tables over the whole timeline. */
  public long appendedRows() {
    return perMinute.totalRows();
  }

  /** Detected phases: every window's steady state is what gets summarised and compared. */
  private static List<Phase> steadyPhases(List<Phase> detected) {
    List<Phase> steady = detected.stream().filter(p -> p.name().contains(" steady")).toList();
    return steady.isEmpty() ? detected : steady;
  }

  private static List<Phase> given(Timeline perMinute, List<PhaseSpec> specs) {
    LocalDate day = LocalDate.ofInstant(perMinute.buckets().get(0).start(), ZoneOffset.UTC);
    Instant lastMinute = perMinute.buckets().get(perMinute.buckets().size() - 1).start();
    boolean crossesMidnight = LocalDate.ofInstant(lastMinute, ZoneOffset.UTC).isAfter(day);
    List<Phase> phases = new ArrayList<>();
    for (PhaseSpec spec : specs) {
      if (spec.last().isBefore(spec.first()) && !crossesMidnight) {
        throw new IllegalArgumentException(
            "--phase "
                + spec.name()
                + "="
                + spec.first()
                + ".."
                + spec.last()
                + " ends before it starts, and the timeline ("
                + perMinute.buckets().get(0).start()
                + " to "
                + lastMinute.plusSeconds(60)
                + ") does not cross midnight; give the earlier minute first, e.g. "
                + spec.name()
                + "="
                + spec.last()
                + ".."
                + spec.first());
      }
      // A phase after midnight of a timeline that crosses it lies on the second day.
      LocalDate phaseDay =
          crossesMidnight
                  && spec.first()
                      .isBefore(
                          LocalTime.ofInstant(perMinute.buckets().get(0).start(), ZoneOffset.UTC))
              ? day.plusDays(1)
              : day;
      Instant start = spec.start(phaseDay);
      Instant end = spec.end(phaseDay);
      int from = -1;
      int to = -1;
      for (int i = 0; i < perMinute.buckets().size(); i++) {
        Instant t = perMinute.buckets().get(i).start();
        if (!t.isBefore(start) && t.isBefore(end)) {
          from = from < 0 ? i : from;
          to = i + 1;
        }
      }
      if (from < 0) {
        throw new IllegalArgumentException(
            "--phase "
                + spec.name()
                + " ("
                + start
                + " to "
                + end
                + ") covers no minute of the timeline, which runs from "
                + perMinute.buckets().get(0).start());
      }
      phases.add(
          new Phase(
              spec.name(),
              from,
              to,
              perMinute.buckets().get(from).start(),
              perMinute.buckets().get(to - 1).start().plusSeconds(60)));
    }
    return phases;
  }
}
