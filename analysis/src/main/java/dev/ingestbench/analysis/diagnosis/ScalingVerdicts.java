package dev.ingestbench.analysis.diagnosis;

import dev.ingestbench.analysis.stats.Comparison;
import dev.ingestbench.analysis.stats.PhaseSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One verdict per change of writers between consecutive phases, judged on the rate per writer: the
 * per-writer rate after the change against the one before (a ratio with its Welch 95% interval).
 *
 * <ul>
 *   <li>Linear: the interval contains 1, or the ratio is within {@link #LINEAR_TOLERANCE} of it.
 *   <li>A writer joining and the per-writer rate falling: per-table contention, unless another
 *       limit (CPU-bound, the quota, the connection limit) explains it; then that limit is named
 *       and contention rejected.
 *   <li>A writer leaving is the mirror: the remaining writers speeding up is never contention (a
 *       per-writer rate that rises is not); slowing down says the rate is set elsewhere.
 *   <li>Writers only estimated from the level ratios are not used to judge those levels (circular):
 *       the verdict says so and what evidence would settle it.
 *   <li>A phase shorter than {@link #MIN_LEVEL_MINUTES} minutes (a job starting or draining) is not
 *       a level with a writer count of its own: a change into or out of it is not judged.
 * </ul>
 */
public final class ScalingVerdicts {
  /** A per-writer ratio within 10% of 1 counts as linear even when the interval is tighter. */
  public static final double LINEAR_TOLERANCE = 0.10;

  /** Fewer minutes than this are a transient (partial minutes of a job starting or draining). */
  public static final int MIN_LEVEL_MINUTES = 3;

  private ScalingVerdicts() {}

  /**
   * @param otherLimit the limit another verdict found for the whole timeline (quota, connections),
   *     or null: with one, a sub-linear join is explained by it, not called contention
   */
  public static List<Verdict> of(
      List<PhaseSummary> phases, WriterEvidence writers, String otherLimit) {
    List<Verdict> verdicts = new ArrayList<>();
    List<String> circular = new ArrayList<>();
    for (int i = 1; i < phases.size(); i++) {
      PhaseSummary p = phases.get(i - 1);
      PhaseSummary q = phases.get(i);
      String pn = p.phase().name();
      String qn = q.phase().name();
      int wp = writers.counts().get(pn);
      int wq = writers.counts().get(qn);
      if (wp == wq) {
        continue;
      }
      if (writers.estimated(pn) || writers.estimated(qn)) {
        circular.add(pn + " → " + qn + " (" + wp + " → " + wq + ")");
        continue;
      }
      PhaseSummary shortOne =
          p.phase().buckets() < MIN_LEVEL_MINUTES
              ? p
              : q.phase().buckets() < MIN_LEVEL_MINUTES ? q : null;
      if (shortOne != null) {
        verdicts.add(
            new Verdict(
                "scaling-not-judged",
                qn,
                "Scaling from " + pn + " to " + qn + " not judged",
                String.format(
                    Locale.ROOT,
                    "%s lasted %d minute(s), fewer than %d: a job starting or draining, not a"
                        + " level with %d writer(s) of its own",
                    shortOne.phase().name(),
                    shortOne.phase().buckets(),
                    MIN_LEVEL_MINUTES,
                    writers.counts().get(shortOne.phase().name()))));
        continue;
      }
      verdicts.add(judge(p, q, wp, wq, writers, otherLimit));
    }
    if (!circular.isEmpty()) {
      verdicts.add(
          new Verdict(
              "scaling-not-judged",
              null,
              "Scaling not judged: the writers were only estimated",
              "writers per level were estimated from the level ratios ("
                  + String.join(", ", circular)
                  + "), so judging"
                  + " the levels by them would be circular; give --jobs-in PHASE=N, a --connections series with a job"
                  + " column, or one --cpu file per job"));
    }
    return verdicts;
  }

  private static Verdict judge(
      PhaseSummary p, PhaseSummary q, int wp, int wq, WriterEvidence writers, String otherLimit) {
    // The per-writer samples: each minute's rate over the phase's writers; Welch's test then asks
    // whether the rate per writer changed, not whether the total did.
    Comparison c =
        Comparison.of(
            p.phase().name(),
            p.rowsPerSecondSamples().stream().map(r -> r / wp).toList(),
            q.phase().name(),
            q.rowsPerSecondSamples().stream().map(r -> r / wq).toList());
    double perWriter = 1 + c.differencePct() / 100;
    double low = 1 + c.ci95LowPct() / 100;
    double high = 1 + c.ci95HighPct() / 100;
    boolean join = wq > wp;
    String pn = p.phase().name();
    String qn = q.phase().name();
    String evidence =
        String.format(
            Locale.ROOT,
            "%s: %d writer%s (%s), %,.0f rows/s = %,.0f per writer over %d"
                + " minute(s) → %s: %d (%s), %,.0f rows/s = %,.0f per writer over %d minute(s): the per-writer rate"
                + " ×%.2f (95%% CI %.2f–%.2f, Welch p = %.3f)",
            pn,
            wp,
            wp == 1 ? "" : "s",
            writers.sources().get(pn),
            p.rowsPerSecond().mean(),
            p.rowsPerSecond().mean() / wp,
            p.phase().buckets(),
            qn,
            wq,
            writers.sources().get(qn),
            q.rowsPerSecond().mean(),
            q.rowsPerSecond().mean() / wq,
            q.phase().buckets(),
            perWriter,
            low,
            high,
            c.pValue());
    boolean linear = (low <= 1 && 1 <= high) || Math.abs(perWriter - 1) <= LINEAR_TOLERANCE;
    if (linear) {
      return new Verdict(
          "linear-scaling",
          qn,
          (join ? "A writer joining" : "A writer leaving")
              + " scaled linearly: no per-table contention",
          evidence);
    }
    if (join && perWriter < 1) {
      String cpu = cpuBound(p, q);
      String limit = cpu != null ? cpu : otherLimit;
      if (limit != null) {
        return new Verdict(
            "sub-linear-explained",
            qn,
            "Sub-linear scaling as a writer joined, explained by " + limit,
            evidence
                + String.format(
                    Locale.ROOT,
                    "; %.0f%% of proportional; not called per-table contention: %s"
                        + " limits the rate by itself",
                    100 * perWriter,
                    limit));
      }
      return new Verdict(
          "contention",
          qn,
          "Per-table contention (sub-linear scaling)",
          evidence
              + String.format(
                  Locale.ROOT,
                  "; %.0f%% of proportional, CPU spare where measured, no quota or connection signal",
                  100 * perWriter));
    }
    if (!join && perWriter > 1) {
      return new Verdict(
          "remaining-writers-faster",
          qn,
          "A writer leaving: the remaining writers sped up (not" + " contention)",
          evidence
              + "; a per-writer rate that rises when a writer leaves is not read as per-table"
              + " contention: a shared resource (the machine, the source, a quota) left to fewer writers gives the same");
    }
    return new Verdict(
        "rate-set-elsewhere",
        qn,
        join
            ? "A writer joining raised the rate per writer"
            : "A writer leaving slowed the remaining writers too",
        evidence
            + "; the writers do not set this rate: look at"
            + " the source (backlog, subscription throughput) and at CPU");
  }

  private static String cpuBound(PhaseSummary p, PhaseSummary q) {
    List<String> bound =
        List.of(p, q).stream()
            .filter(
                s -> !Double.isNaN(s.cpuUtilisation()) && s.cpuUtilisation() >= Diagnoser.CPU_BOUND)
            .map(
                s ->
                    String.format(
                        Locale.ROOT,
                        "CPU (%.0f%% in %s)",
                        100 * s.cpuUtilisation(),
                        s.phase().name()))
            .collect(Collectors.toList());
    return bound.isEmpty() ? null : String.join(" and ", bound);
  }

  /** Both are levels of one job window. */
  static boolean sameWindow(PhaseSummary a, PhaseSummary b) {
    String wa = window(a.phase().name());
    return wa != null
        && wa.equals(window(b.phase().name()))
        && a.phase().name().contains(" steady")
        && b.phase().name().contains(" steady");
  }

  private static String window(String phase) {
    int space = phase.indexOf(' ');
    return phase.startsWith("W") && space > 1 ? phase.substring(0, space) : null;
  }
}
