package dev.ingestbench.pubsubload;

import dev.ingestbench.analysis.capacity.RateBisection;
import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.RunJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code pubsub-load} without {@code --rate}: the highest publish rate both sides sustain, and
 * which side limited it. The publisher's own capacity is measured first (a probe without a rate
 * limit); when the subscriber kept up with it, that is the answer and the publisher the limit.
 * Otherwise the rate is searched below it by {@link RateBisection}, each probe a full measurement
 * on a topic of its own, until the bracket is within its resolution or {@code maxProbes} have run.
 */
final class MaxRateSearch {
  /** A probe sustains its rate when both sides reach this share of it over the window. */
  static final double KEPT_UP = 0.95;

  /** One probe: the rate it asked for (0: none) and what it measured. */
  record Probe(
      int number,
      double targetRate,
      Estimate published,
      Estimate received,
      double endToEndP99Ms,
      long errors,
      boolean sustained,
      String why) {}

  private final LoadSettings base;
  private final Duration latencySlo;
  private final int maxProbes;

  MaxRateSearch(LoadSettings base, Duration latencySlo, int maxProbes) {
    this.base = base;
    this.latencySlo = latencySlo;
    this.maxProbes = maxProbes;
  }

  int run(
      PubsubTarget target,
      String targetName,
      Map<String, Object> machine,
      Path dir,
      Consumer<String> log)
      throws Exception {
    Files.createDirectories(dir);
    List<Probe> probes = new ArrayList<>();
    log.accept("Max-rate search: first the publisher's own capacity (no rate limit)");
    Probe first = probe(1, 0, target, targetName, machine, dir, log);
    probes.add(first);
    // The unlimited probe's rate is what the publisher sent: the top of the search.
    RateBisection search = RateBisection.fromTop(first.published().mean());
    search.record(
        first.published().mean(),
        first.sustained(),
        Math.min(first.received().mean(), first.published().mean()));
    String limitedBy = first.sustained() ? "publisher" : limit(first.why());
    while (!search.converged() && !search.exhausted() && probes.size() < maxProbes) {
      double next = search.next();
      Probe p = probe(probes.size() + 1, next, target, targetName, machine, dir, log);
      probes.add(p);
      search.record(next, p.sustained(), Math.min(p.received().mean(), p.published().mean()));
    }
    double sustained = search.sustained();
    double notSustained = search.notSustained();
    Probe best = probes.stream().filter(Probe::sustained).reduce((a, b) -> b).orElse(null);
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("max_sustainable_messages_per_second", best == null ? null : sustained);
    summary.put("limited_by", limitedBy);
    summary.put("sustained_received_per_second", best == null ? null : best.received());
    summary.put(
        "bracket",
        Map.of(
            "sustained",
            sustained,
            "not_sustained",
            Double.isNaN(notSustained) ? "none" : notSustained));
    summary.put("latency_slo_ms", latencySlo.toMillis());
    summary.put("kept_up_share", KEPT_UP);
    summary.put("probes", probes);
    RunJson.write(dir.resolve(LoadFiles.SUMMARY), summary);
    Files.writeString(
        dir.resolve(LoadFiles.REPORT),
        markdown(probes, best, sustained, notSustained, limitedBy, machine, targetName),
        StandardCharsets.UTF_8);
    if (best == null) {
      log.accept(
          String.format(
              Locale.ROOT,
              "No rate was sustained in %d probes (the last bracket: 0 to %,.0f msg/s; %s):"
                  + " raise --max-probes, or look at the probes in %s",
              probes.size(),
              notSustained,
              probes.get(probes.size() - 1).why(),
              dir.resolve(LoadFiles.REPORT)));
      return ExitCodes.INCOMPLETE;
    }
    log.accept(
        String.format(
            Locale.ROOT,
            "Highest sustained rate: %,.0f msg/s (limited by the %s; %d probes). Report: %s",
            sustained,
            limitedBy,
            probes.size(),
            dir.resolve(LoadFiles.REPORT)));
    return ExitCodes.OK;
  }

  private Probe probe(
      int number,
      double rate,
      PubsubTarget target,
      String targetName,
      Map<String, Object> machine,
      Path dir,
      Consumer<String> log)
      throws Exception {
    String name = probeDirectory(number, rate);
    log.accept(
        String.format(
            Locale.ROOT,
            "Probe %d of at most %d: %s",
            number,
            maxProbes,
            rate == 0 ? "no rate limit" : String.format(Locale.ROOT, "%,.0f msg/s", rate)));
    LoadSettings s =
        base.withRate(rate)
            .withTopic(base.topic() + "-" + name, base.subscription() + "-" + name)
            .validated();
    Path probeDir = dir.resolve(name);
    LoadResult r = new LoadRun(s, target, Runs.id(), log).run(probeDir);
    LoadReport.write(r, machine, targetName, probeDir);
    Estimate pub = r.publishedPerSecond();
    Estimate rec = r.receivedPerSecond();
    double p99 =
        r.endToEndLatency().getTotalCount() == 0
            ? Double.NaN
            : r.endToEndLatency().getValueAtPercentile(99) / 1000.0;
    String why = judge(rate, pub.mean(), rec.mean(), p99, r.errors());
    Probe p = new Probe(number, rate, pub, rec, p99, r.errors(), why.equals("kept up"), why);
    log.accept(
        String.format(
            Locale.ROOT,
            "Probe %d: published %,.0f msg/s, received %,.0f msg/s, end-to-end p99 %,.0f ms: %s",
            number,
            pub.mean(),
            rec.mean(),
            p99,
            p.sustained() ? "sustained" : "not sustained (" + why + ")"));
    return p;
  }

  /**
   * Which side an unlimited probe that was not sustained points at: the subscriber that fell
   * behind, the latency that grew, or the publisher (it failed, or had nothing acknowledged in the
   * window).
   */
  static String limit(String why) {
    if (why.startsWith("latency")) {
      return "latency";
    }
    return why.startsWith("the subscriber") ? "subscriber" : "publisher";
  }

  /** "kept up", or why the probe did not sustain its rate. */
  String judge(double rate, double published, double received, double p99Ms, long errors) {
    if (errors > 0) {
      return errors + " publish errors";
    }
    if (!(published > 0)) {
      return "the publisher had nothing acknowledged within the window (its client queued what it"
          + " could not yet send): lower --max-outstanding-messages or lengthen --duration";
    }
    if (rate > 0 && published < KEPT_UP * rate) {
      return String.format(Locale.ROOT, "the publisher sent %,.0f of %,.0f msg/s", published, rate);
    }
    if (received < KEPT_UP * published) {
      return String.format(
          Locale.ROOT,
          "the subscriber received %,.0f of %,.0f msg/s published",
          received,
          published);
    }
    if (!(p99Ms <= latencySlo.toMillis())) {
      return String.format(
          Locale.ROOT,
          "latency: end-to-end p99 %,.0f ms is above --latency-slo %d ms",
          p99Ms,
          latencySlo.toMillis());
    }
    return "kept up";
  }

  /** Probe {@code number}'s directory: {@code probe-1-max}, {@code probe-2-40000}. */
  private static String probeDirectory(int number, double rate) {
    return String.format(Locale.ROOT, "probe-%d-%s", number, rate == 0 ? "max" : (long) rate);
  }

  private String markdown(
      List<Probe> probes,
      Probe best,
      double sustained,
      double notSustained,
      String limitedBy,
      Map<String, Object> machine,
      String targetName) {
    Document doc =
        new Document()
            .heading(1, "Pub/Sub load test: the highest sustained rate")
            .paragraph(
                String.format(
                    Locale.ROOT,
                    "Against %s on %s vCPUs (%s), %d-byte messages, %d publisher thread(s). Each probe is a"
                        + " full measurement on a topic of its own (burn-in %ds, window %ds); a rate is"
                        + " sustained when both sides reach %.0f%% of it over the window, the end-to-end p99"
                        + " stays within %,d ms and no publish fails. The first probe has no rate limit: the"
                        + " publisher's own capacity. Then the rate is bisected between the highest sustained"
                        + " and the lowest not sustained, to within %.0f%% or %d probes.",
                    targetName,
                    machine.get("vcpus"),
                    machine.get("cpu_model"),
                    base.messageSizeBytes(),
                    base.threads(),
                    base.burnIn().getSeconds(),
                    base.duration().getSeconds(),
                    KEPT_UP * 100,
                    latencySlo.toMillis(),
                    RateBisection.RESOLUTION * 100,
                    maxProbes));
    if (best == null) {
      doc.paragraph(
          String.format(
              Locale.ROOT,
              "**No rate was sustained** (the bracket reached: 0 to %,.0f msg/s).",
              notSustained));
    } else {
      doc.paragraph(
          String.format(
              Locale.ROOT,
              "**Highest sustained rate: %,.0f msg/s**, limited by the %s (received over the"
                  + " window: %,.0f msg/s, 95%% CI %,.0f–%,.0f, %d one-second samples)%s.",
              sustained,
              limitedBy,
              best.received().mean(),
              best.received().ci95Low(),
              best.received().ci95High(),
              best.received().n(),
              Double.isNaN(notSustained)
                  ? ": the subscriber kept up with everything the publisher could send"
                  : String.format(Locale.ROOT, "; %,.0f msg/s was not sustained", notSustained)));
    }
    Table t =
        Table.of(
            Column.number("Probe"),
            Column.number("Asked msgs/s"),
            Column.number("Published msgs/s"),
            Column.number("Received msgs/s"),
            Column.number("End-to-end p99 ms"),
            Column.text("Verdict"));
    for (Probe p : probes) {
      t.row(
          "["
              + p.number()
              + "]("
              + probeDirectory(p.number(), p.targetRate())
              + "/"
              + LoadFiles.REPORT
              + ")",
          p.targetRate() == 0 ? "no limit" : Numbers.f0(p.targetRate()),
          Numbers.f0(p.published().mean()),
          Numbers.f0(p.received().mean()),
          Numbers.f0(p.endToEndP99Ms()),
          p.sustained() ? "sustained" : p.why());
    }
    return doc.table(t).markdown();
  }
}
