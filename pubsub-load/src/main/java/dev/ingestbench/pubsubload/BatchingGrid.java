package dev.ingestbench.pubsubload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.verification.Finding;
import dev.ingestbench.verification.Verdict;
import dev.ingestbench.verification.VerificationPolicy;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * {@code --grid}: a grid search over the publisher's batch settings as the published batching study
 * ran it: every combination of delay, count and bytes, plus a baseline without batching (one
 * message per request), {@code trials} times each in a shuffled order (so drift over time does not
 * favour a combination); each trial publishes {@code messages} messages and is timed from the first
 * publish to the last acknowledgement. Trials are appended to {@code grid_trials.jsonl} as they
 * finish, so a rerun into the same {@code --out} resumes where it stopped.
 */
record BatchingGrid(
    String spec,
    List<Duration> delays,
    List<Long> counts,
    List<Long> bytes,
    int trials,
    long messages,
    long seed) {

  static final String BASELINE = "no batching";

  /** One combination of batch settings; the baseline is count 1 (each message its own request). */
  record Combination(String name, Duration delay, long count, long bytes) {}

  static BatchingGrid parse(String spec, int trials, long messages, long seed) {
    if (trials < 1 || trials > 1000) {
      throw new IllegalArgumentException(
          "--trials " + trials + " is out of range: use 1..1000 (the published study: 25)");
    }
    if (messages < 1) {
      throw new IllegalArgumentException(
          "--messages " + messages + " is out of range: use 1 or more");
    }
    List<Duration> delays = List.of();
    List<Long> counts = List.of();
    List<Long> bytes = List.of();
    for (String part : spec.split(";")) {
      if (part.isBlank()) {
        continue;
      }
      int eq = part.indexOf('=');
      String key = eq < 0 ? part.trim() : part.substring(0, eq).trim();
      String values = eq < 0 ? "" : part.substring(eq + 1).trim();
      if (values.isEmpty()) {
        throw new IllegalArgumentException(
            "--grid: '" + part.trim() + "' has no values; write e.g. delay=1,10,100ms");
      }
      switch (key) {
        case "delay" -> delays = delays(values);
        case "count" -> counts = longs("count", values, 1, LoadSettings.MAX_BATCH_MESSAGES);
        case "bytes" -> bytes = longs("bytes", values, 1, LoadSettings.MAX_BATCH_BYTES);
        default ->
            throw new IllegalArgumentException(
                "--grid: '"
                    + key
                    + "' is not a batch setting; use delay, count"
                    + " and bytes, as in \"delay=1,10,100ms; count=5,50,100,1000; bytes=2048,4096,1000000\"");
      }
    }
    if (delays.isEmpty() && counts.isEmpty() && bytes.isEmpty()) {
      throw new IllegalArgumentException(
          "--grid '"
              + spec
              + "' names no setting; write e.g."
              + " \"delay=1,10,100ms; count=5,50,100,1000; bytes=2048,4096,1000000\"");
    }
    return new BatchingGrid(spec.trim(), delays, counts, bytes, trials, messages, seed);
  }

  /** "1,10,100ms": the unit written last applies to the values without one; "1ms,2s" works too. */
  private static List<Duration> delays(String values) {
    String[] parts = values.split(",");
    String unit = parts[parts.length - 1].trim().replaceAll("^\\d+", "");
    List<Duration> out = new ArrayList<>();
    for (String p : parts) {
      String v = p.trim();
      if (v.matches("\\d+")) {
        v = v + (unit.isEmpty() ? "ms" : unit);
      }
      Duration d = PubsubLoadCommand.duration("--grid delay", v);
      if (d.isZero()) {
        throw new IllegalArgumentException(
            "--grid delay " + v + " is out of range: use 1ms or more");
      }
      out.add(d);
    }
    return out;
  }

  private static List<Long> longs(String key, String values, long min, long max) {
    List<Long> out = new ArrayList<>();
    for (String p : values.split(",")) {
      try {
        long v = Long.parseLong(p.trim());
        if (v < min || v > max) {
          throw new IllegalArgumentException(
              "--grid "
                  + key
                  + " "
                  + v
                  + " is out of range: use "
                  + min
                  + ".."
                  + max
                  + (key.equals("count")
                      ? " (the service's limit per Publish request)"
                      : " (the service's 10 MB request limit)"));
        }
        out.add(v);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "--grid " + key + ": '" + p.trim() + "' is not a whole number");
      }
    }
    return out;
  }

  /**
   * Every combination, the baseline first; settings the grid leaves out keep the base settings'
   * values.
   */
  List<Combination> combinations(LoadSettings base) {
    List<Combination> all = new ArrayList<>();
    all.add(new Combination(BASELINE, Duration.ofMillis(1), 1, base.batchMaxBytes()));
    for (Duration d : delays.isEmpty() ? List.of(base.batchDelay()) : delays) {
      for (long c : counts.isEmpty() ? List.of(base.batchMaxMessages()) : counts) {
        for (long b : bytes.isEmpty() ? List.of(base.batchMaxBytes()) : bytes) {
          all.add(
              new Combination(
                  String.format(Locale.ROOT, "delay=%dms count=%d bytes=%d", d.toMillis(), c, b),
                  d,
                  c,
                  b));
        }
      }
    }
    return all;
  }

  /**
   * The trials in the order they run: each combination {@code trials} times, shuffled by {@code
   * seed}.
   */
  List<Map.Entry<Combination, Integer>> order(LoadSettings base) {
    List<Map.Entry<Combination, Integer>> order = new ArrayList<>();
    for (Combination c : combinations(base)) {
      for (int t = 1; t <= trials; t++) {
        order.add(Map.entry(c, t));
      }
    }
    Collections.shuffle(order, new Random(seed));
    return order;
  }

  int run(
      LoadSettings base,
      PubsubTarget target,
      String targetName,
      Map<String, Object> machine,
      Path dir,
      boolean restart,
      Consumer<String> log)
      throws Exception {
    LoadSettings publishOnly = base.withSide(LoadSettings.Side.PUBLISH);
    Files.createDirectories(dir);
    Map<String, Object> plan = plan(publishOnly, targetName);
    Path planFile = dir.resolve(LoadFiles.GRID_PLAN);
    Path trialsFile = dir.resolve(LoadFiles.GRID_TRIALS);
    if (restart) {
      Files.deleteIfExists(trialsFile);
    } else if (Files.exists(planFile)) {
      Map<?, ?> previous = new ObjectMapper().readValue(planFile.toFile(), Map.class);
      if (!previous.equals(new ObjectMapper().readValue(RunJson.toJson(plan), Map.class))) {
        throw new IllegalArgumentException(
            "--out "
                + dir
                + " holds a grid search with other settings ("
                + planFile
                + "): give another --out, or --restart to start over there");
      }
    }
    RunJson.write(planFile, plan);
    target.ensure(publishOnly);
    List<Map<String, Object>> done = readTrials(trialsFile);
    Set<String> finished = new HashSet<>();
    done.forEach(t -> finished.add(t.get("combination") + "#" + t.get("trial")));
    List<Map.Entry<Combination, Integer>> order = order(publishOnly);
    int total = order.size();
    if (!finished.isEmpty()) {
      log.accept(
          String.format(
              Locale.ROOT,
              "Resuming: %d of %d trials done already (%s)",
              finished.size(),
              total,
              trialsFile));
    }
    int n = 0;
    try (BufferedWriter out =
        Files.newBufferedWriter(
            trialsFile,
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND)) {
      for (Map.Entry<Combination, Integer> e : order) {
        n++;
        if (finished.contains(e.getKey().name() + "#" + e.getValue())) {
          continue;
        }
        Map<String, Object> trial = trial(publishOnly, target, e.getKey(), e.getValue(), n);
        log.accept(
            String.format(
                Locale.ROOT,
                "Trial %d of %d: %s #%d: %,.0f ms, %,.0f msg/s%s",
                n,
                total,
                e.getKey().name(),
                e.getValue(),
                (Double) trial.get("time_ms"),
                (Double) trial.get("messages_per_second"),
                ((Number) trial.get("errors")).longValue() > 0
                    ? ", " + trial.get("errors") + " errors"
                    : ""));
        out.write(RunJson.toJsonLine(trial));
        out.newLine();
        out.flush();
        done.add(trial);
      }
    }
    GridSummary summary = GridSummary.of(this, publishOnly, done);
    Map<String, Object> json = summary.json(plan, machine);
    RunJson.write(dir.resolve(LoadFiles.SUMMARY), json);
    Files.writeString(
        dir.resolve(LoadFiles.REPORT),
        summary.markdown(targetName, machine),
        StandardCharsets.UTF_8);
    log.accept(summary.recommendation());
    log.accept("Grid report: " + dir.resolve(LoadFiles.REPORT));
    // Each trial publishes only, and is timed until Pub/Sub acknowledged it all: a trial with
    // errors
    // did not publish what it timed.
    Verdict verdict = new Verdict(new VerificationPolicy(0));
    for (Map<String, Object> t : done) {
      Map<String, Object> totals =
          Map.of(
              "published", t.get("messages"), "acked", t.get("acked"), "errors", t.get("errors"));
      LoadVerification.judge(t.get("combination") + " #" + t.get("trial"), totals)
          .forEach(verdict::add);
    }
    for (Finding f : verdict.failuresFirst()) {
      log.accept(f.heading() + " " + f.line());
    }
    return verdict.exitCode();
  }

  /**
   * What must match for a rerun to resume: the grid, the trials, and every setting a trial uses.
   */
  private Map<String, Object> plan(LoadSettings s, String targetName) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("grid", spec);
    m.put("trials", trials);
    m.put("messages", messages);
    m.put("seed", seed);
    m.put("message_size_bytes", s.messageSizeBytes());
    m.put("threads", s.threads());
    m.put("rate_per_second", s.ratePerSecond());
    m.put("target", targetName.startsWith("the Pub/Sub emulator") ? "emulator" : targetName);
    return m;
  }

  private Map<String, Object> trial(
      LoadSettings base, PubsubTarget target, Combination c, int trial, int position)
      throws Exception {
    LoadSettings s = base.withBatching(c.count(), c.bytes(), c.delay()).validated();
    LoadCounters counters = new LoadCounters(Runs.id());
    long started;
    try (PublisherLoad publisher = new PublisherLoad(s, target, counters)) {
      started = System.nanoTime();
      publisher.start(messages);
      publisher.awaitHandedOver();
    }
    double timeMs = (counters.lastCompletionNanos.get() - started) / 1e6;
    Histogram latency = counters.publishLatency.getIntervalHistogram();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("combination", c.name());
    m.put("delay_ms", c.delay().toMillis());
    m.put("count", c.count());
    m.put("bytes", c.bytes());
    m.put("trial", trial);
    m.put("position", position);
    m.put("messages", messages);
    m.put("acked", counters.acked.sum());
    m.put("errors", counters.errors.sum());
    m.put("time_ms", Math.round(timeMs * 1000) / 1000.0);
    m.put("messages_per_second", Math.round(messages / (timeMs / 1000) * 10) / 10.0);
    m.put(
        "publish_p50_ms",
        latency.getTotalCount() == 0 ? null : latency.getValueAtPercentile(50) / 1000.0);
    m.put(
        "publish_p99_ms",
        latency.getTotalCount() == 0 ? null : latency.getValueAtPercentile(99) / 1000.0);
    return m;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> readTrials(Path file) throws IOException {
    List<Map<String, Object>> trials = new ArrayList<>();
    if (!Files.exists(file)) {
      return trials;
    }
    ObjectMapper mapper = new ObjectMapper();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      try {
        JsonNode node = mapper.readTree(line);
        trials.add(mapper.convertValue(node, Map.class));
      } catch (IOException e) {
        // a line cut short by Ctrl-C or a crash: that trial runs again
      }
    }
    return trials;
  }
}
