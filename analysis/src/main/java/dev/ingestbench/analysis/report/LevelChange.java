package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.model.Timeline;
import dev.ingestbench.analysis.phases.ChangePoints;
import dev.ingestbench.analysis.phases.JobWindows;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.stats.Comparison;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A boundary the analysis found between consecutive detected phases, each with its evidence, so a
 * reader can check a split instead of trusting it: a gap of empty minutes (a job switch), partial
 * first or last minutes (ramp-up, drain), a level shift with the Welch comparison of the two
 * levels' minutes, and single odd minutes inside a level that were not taken for a shift.
 *
 * @param kind {@code gap}, {@code ramp-up}, {@code level-shift}, {@code drain} or {@code transient}
 * @param at the first minute after the boundary (for a transient: the odd minute)
 * @param changePct the level after against the level before, in % (NaN where not a comparison)
 */
public record LevelChange(
    String kind,
    Instant at,
    String before,
    String after,
    double rowsPerSecondBefore,
    double rowsPerSecondAfter,
    double changePct,
    double ci95LowPct,
    double ci95HighPct,
    double pValue,
    String evidence) {

  /**
   * A transient minute is this many times the level's per-minute noise off its median (and > 10%).
   */
  public static final double TRANSIENT_SIGMAS = 5;

  private static final DateTimeFormatter HM =
      DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

  /** Every boundary between consecutive {@code detected} phases, and every transient inside one. */
  public static List<LevelChange> find(List<Phase> detected, Timeline perMinute) {
    List<Bucket> buckets = perMinute.buckets();
    List<LevelChange> changes = new ArrayList<>();
    for (int i = 0; i < detected.size(); i++) {
      Phase q = detected.get(i);
      if (i > 0) {
        changes.add(between(detected.get(i - 1), q, buckets));
      }
      if (!q.kind().equals("ramp-up") && !q.kind().equals("drain")) {
        changes.addAll(transients(q, buckets));
      }
    }
    changes.sort(Comparator.comparing(LevelChange::at));
    return changes;
  }

  private static LevelChange between(Phase p, Phase q, List<Bucket> buckets) {
    double before = rowsPerSecond(buckets, p.fromIndex(), p.toIndex());
    double after = rowsPerSecond(buckets, q.fromIndex(), q.toIndex());
    if (q.fromIndex() > p.toIndex()) {
      int empty = q.fromIndex() - p.toIndex();
      return plain(
          "gap",
          q,
          p,
          before,
          after,
          String.format(
              Locale.ROOT,
              "%d empty minute%s (%s to %s): no rows to any data table, so a new job window begins",
              empty,
              empty == 1 ? "" : "s",
              HM.format(p.end()),
              HM.format(q.start())));
    }
    if (p.kind().equals("ramp-up")) {
      return plain(
          "ramp-up",
          q,
          p,
          before,
          after,
          String.format(
              Locale.ROOT,
              "the window's first %s averaged %,.0f rows/s, %sbelow %.0f%% of the minute after it: partial minutes"
                  + " while writing started",
              minutes(p),
              before,
              p.buckets() == 1 ? "" : "each ",
              100 * JobWindows.EDGE));
    }
    if (q.kind().equals("drain")) {
      return plain(
          "drain",
          q,
          p,
          before,
          after,
          String.format(
              Locale.ROOT,
              "the window's last %s averaged %,.0f rows/s, %sbelow %.0f%% of the minute before it: partial minutes"
                  + " while writing stopped",
              minutes(q),
              after,
              q.buckets() == 1 ? "" : "each ",
              100 * JobWindows.EDGE));
    }
    Comparison c = Comparison.of(p.name(), perSecond(buckets, p), q.name(), perSecond(buckets, q));
    String test =
        Double.isNaN(c.pValue())
            ? "too few minutes for a test"
            : String.format(
                Locale.ROOT,
                "95%% CI %+.1f%% to %+.1f%%, Welch p %s",
                c.ci95LowPct(),
                c.ci95HighPct(),
                c.pValue() < 0.001 ? "< 0.001" : String.format(Locale.ROOT, "= %.3f", c.pValue()));
    return new LevelChange(
        "level-shift",
        q.start(),
        p.name(),
        q.name(),
        before,
        after,
        c.differencePct(),
        c.ci95LowPct(),
        c.ci95HighPct(),
        c.pValue(),
        String.format(
            Locale.ROOT,
            "%,.0f -> %,.0f rows/s (%+.1f%%; %s): a change point of the per-minute level (PELT; levels under %.0f%%"
                + " apart are merged)",
            before,
            after,
            c.differencePct(),
            test,
            100 * ChangePoints.MIN_CHANGE));
  }

  /**
   * Single minutes of a level more than {@link ChangePoints#MIN_CHANGE} and {@link
   * #TRANSIENT_SIGMAS} sigma off its median while their neighbours are not: shown so a dip is seen,
   * and said not to be a level change.
   */
  private static List<LevelChange> transients(Phase level, List<Bucket> buckets) {
    List<LevelChange> found = new ArrayList<>();
    if (level.buckets() < 3) {
      return found;
    }
    double[] rows = new double[level.buckets()];
    for (int i = level.fromIndex(); i < level.toIndex(); i++) {
      rows[i - level.fromIndex()] = buckets.get(i).rows();
    }
    double[] sorted = rows.clone();
    Arrays.sort(sorted);
    double median = sorted[sorted.length / 2];
    // Off by more than the merge threshold and by more than 5 sigma of the level's own noise: at 3%
    // noise a 10% minute comes by chance every few hundred minutes, a 15% one hardly ever.
    double limit =
        Math.max(
            Math.log(1 + ChangePoints.MIN_CHANGE),
            TRANSIENT_SIGMAS * ChangePoints.noise(ChangePoints.logLevels(rows)));
    for (int k = 0; k < rows.length; k++) {
      boolean odd = rows[k] <= 0 || Math.abs(Math.log(rows[k] / median)) > limit;
      boolean neighboursFine =
          (k == 0 || JobWindows.agree(rows[k - 1], median))
              && (k + 1 == rows.length || JobWindows.agree(rows[k + 1], median));
      if (odd && neighboursFine) {
        Bucket minute = buckets.get(level.fromIndex() + k);
        double levelRate = median / minute.seconds();
        double pct = 100 * (minute.rowsPerSecond() - levelRate) / levelRate;
        found.add(
            new LevelChange(
                "transient",
                minute.start(),
                level.name(),
                level.name(),
                levelRate,
                minute.rowsPerSecond(),
                pct,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                String.format(
                    Locale.ROOT,
                    "one minute at %,.0f rows/s, %+.0f%% of its level's median (%,.0f rows/s), with the minutes around it"
                        + " at the level: a transient, not a level change",
                    minute.rowsPerSecond(),
                    pct,
                    levelRate)));
      }
    }
    return found;
  }

  private static LevelChange plain(
      String kind, Phase q, Phase p, double before, double after, String evidence) {
    return new LevelChange(
        kind,
        q.start(),
        p.name(),
        q.name(),
        before,
        after,
        before > 0 ? 100 * (after - before) / before : Double.NaN,
        Double.NaN,
        Double.NaN,
        Double.NaN,
        evidence);
  }

  private static String minutes(Phase p) {
    return p.buckets() == 1 ? "minute" : p.buckets() + " minutes";
  }

  private static double rowsPerSecond(List<Bucket> buckets, int from, int to) {
    double rows = 0;
    double seconds = 0;
    for (int i = from; i < to; i++) {
      rows += buckets.get(i).rows();
      seconds += buckets.get(i).seconds();
    }
    return seconds == 0 ? 0 : rows / seconds;
  }

  private static List<Double> perSecond(List<Bucket> buckets, Phase p) {
    return buckets.subList(p.fromIndex(), p.toIndex()).stream().map(Bucket::rowsPerSecond).toList();
  }
}
