package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.model.Timeline;
import dev.ingestbench.contracts.LiveProfileResult;
import dev.ingestbench.contracts.WindowLatency;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/**
 * The report's section of {@code round --live-profile}: per step, what it asked, what was written
 * in its window (the per-second timeline), the backlog it left, and the latency of its messages.
 */
final class LiveProfileMarkdown {
  private LiveProfileMarkdown() {}

  static Document render(LiveProfileResult p, Timeline perSecond, int jobs) {
    Table t =
        Table.of(
            Column.number("Step"),
            Column.text("Rate"),
            Column.text("Window (UTC)"),
            Column.number("Written rows/s"),
            Column.number("Backlog at end"),
            Column.number("Latency p50 / p99 / p99.9 / max ms"),
            Column.number("Publish → visible p99 ms"),
            Column.number("Messages seen / meant"));
    for (LiveProfileResult.Step s : p.steps()) {
      long rows = 0;
      int seconds = 0;
      for (Bucket b : perSecond.buckets()) {
        long t0 = b.start().toEpochMilli();
        if (t0 >= s.fromEpochMs() && t0 < s.toEpochMs()) {
          rows += b.rows();
          seconds += b.seconds();
        }
      }
      WindowLatency worst = worst(s.latencyByJob());
      WindowLatency.Percentiles i = worst == null ? null : worst.intended();
      t.row(
          Integer.toString(s.number()),
          trim(s.multiplier()) + "x = " + Numbers.f0(s.ratePerSecond()) + " msg/s",
          Instant.ofEpochMilli(s.fromEpochMs()).toString().substring(11, 19)
              + "–"
              + Instant.ofEpochMilli(s.toEpochMs()).toString().substring(11, 19),
          seconds == 0 ? "n/a" : Numbers.f0(rows / (double) seconds / jobs),
          s.backlogAtEnd() == null ? "n/a" : Numbers.count(s.backlogAtEnd()),
          i == null
              ? "n/a"
              : String.format(
                  Locale.ROOT,
                  "%,d / %,d / %,d / %,d",
                  i.p50Ms(),
                  i.p99Ms(),
                  i.p999Ms(),
                  i.maxMs()),
          worst == null || worst.published() == null
              ? "n/a"
              : Numbers.count(worst.published().p99Ms()),
          Numbers.count(i == null ? 0 : i.samples())
              + " / "
              + Numbers.count(s.expectedInLatencyWindow()));
    }
    return new Document().heading(2, "Live profile").paragraph(method(p, jobs)).table(t);
  }

  /** What each column means, and from what it is read. */
  private static String method(LiveProfileResult p, int jobs) {
    return String.format(
        Locale.ROOT,
        "`--live-profile %s` at %,.0f msg/s for 1x, from %s (the first live message's intended"
            + " send time). Each step's window is by intended send time. Written rows/s: the"
            + " rows the per-second Write API timeline counts in the window%s (a row counts when"
            + " appended; exactly-once makes it visible at its stream's commit, up to a"
            + " triggering interval later). Backlog: the live messages meant to be sent by the"
            + " window's end that the slowest job had not accounted for (written or"
            + " dead-lettered) at the last reading of the local BigQuery's status before the end,"
            + " a second apart: the messages in flight (about the rate times the latency) and"
            + " any that waited. Latency: visible"
            + " − intended send time of the messages meant to be sent in the window (the paced"
            + " publisher's own delays count too), over the whole seconds inside the step, and"
            + " their count against what was meant for those seconds%s.",
        p.profile(),
        p.baseRate(),
        Instant.ofEpochMilli(p.startEpochMs()),
        jobs > 1 ? ", divided by the " + jobs + " jobs" : "",
        jobs > 1 ? "; the slowest job's (highest p99)" : "");
  }

  /** The job whose p99 against the intended time is highest (none visible counts as worst). */
  private static WindowLatency worst(Map<String, WindowLatency> byJob) {
    WindowLatency worst = null;
    for (WindowLatency l : byJob.values()) {
      if (worst == null
          || l.intended() == null
          || (worst.intended() != null && l.intended().p99Ms() > worst.intended().p99Ms())) {
        worst = l;
      }
    }
    return worst;
  }

  private static String trim(double m) {
    return m == Math.rint(m) ? Long.toString((long) m) : Double.toString(m);
  }
}
