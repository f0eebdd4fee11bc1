package dev.ingestbench.pubsubload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ingestbench.emulator.PubsubEmulator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The load test against the real emulator, as a user runs it: outputs present and consistent. */
@Tag("e2e")
// A long timeout: its Pub/Sub emulator may be the machine's first and build pstest.
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class PubsubLoadCommandTest {
  private static PubsubEmulator emulator;
  private static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  @Timeout(value = 900, unit = TimeUnit.SECONDS)
  static void startEmulator() throws Exception {
    emulator = PubsubEmulator.start();
  }

  @AfterAll
  static void stopEmulator() {
    emulator.close();
  }

  private static int run(String... args) {
    return PubsubLoadCommand.commandLine().execute(args);
  }

  private static String[] with(Path out, String topic, String... args) {
    List<String> all =
        new ArrayList<>(
            List.of(
                "--pubsub-emulator-host",
                emulator.hostAndPort(),
                "--out",
                out.toString(),
                "--topic",
                topic,
                "--subscription",
                topic + "-sub"));
    all.addAll(List.of(args));
    return all.toArray(new String[0]);
  }

  @Test
  void bothSidesAtARateAccountForEveryMessage(@TempDir Path out) throws Exception {
    assertEquals(
        0,
        run(
            with(
                out,
                "both",
                "--rate",
                "400",
                "--burn-in",
                "1s",
                "--duration",
                "3s",
                "--threads",
                "2")));
    JsonNode s = JSON.readTree(out.resolve(LoadFiles.SUMMARY).toFile());
    JsonNode totals = s.get("totals");
    long published = totals.get("published").asLong();
    assertTrue(published > 1000, "published " + published);
    assertEquals(
        published,
        totals.get("acked").asLong() + totals.get("errors").asLong(),
        "published = acked + errors");
    assertTrue(
        totals.get("received").asLong() >= totals.get("acked").asLong(),
        "at-least-once: received >= acked");
    assertEquals(0, totals.get("missing").asLong());
    assertEquals("caught-up", totals.get("drain").asText());
    assertEquals(
        totals.get("received").asLong(),
        totals.get("distinct_received").asLong() + totals.get("duplicates").asLong(),
        "every delivery is a first sighting or a counted duplicate");
    for (String side : List.of("publish", "subscribe")) {
      JsonNode rate = s.get(side).get("messages_per_second");
      assertEquals(400, rate.get("mean").asDouble(), 120, side + " rate near the target");
      assertTrue(rate.get("ci95_low").asDouble() <= rate.get("mean").asDouble());
      assertEquals(3, rate.get("n").asInt(), "one sample per second of the window");
      assertTrue(s.get(side).get("mb_per_second").get("mean").asDouble() > 0.2);
    }
    JsonNode latency = s.get("publish").get("latency_ms");
    for (String p : List.of("p50", "p90", "p99", "p99_9")) {
      assertTrue(latency.get(p).asDouble() > 0, p);
    }
    assertTrue(latency.get("p50").asDouble() <= latency.get("p99").asDouble());
    assertTrue(s.get("subscribe").get("end_to_end_latency_ms").get("p99").asDouble() > 0);
    assertTrue(s.get("checks").get("published_equals_acked_plus_errors").asBoolean());
    assertTrue(s.get("harness").get("publish_cpu_ns_per_message").asDouble() > 0);
    List<String> samples = Files.readAllLines(out.resolve(LoadFiles.SAMPLES));
    assertEquals(LoadSample.HEADER, samples.get(0));
    assertEquals(1, samples.stream().filter(l -> l.contains(",burn-in,")).count());
    assertEquals(3, samples.stream().filter(l -> l.contains(",measure,")).count());
    long publishedInSamples =
        samples.stream().skip(1).mapToLong(l -> Long.parseLong(l.split(",")[3])).sum();
    assertEquals(published, publishedInSamples, "the per-second samples add up to the total");
    String report = Files.readString(out.resolve(LoadFiles.REPORT));
    assertTrue(
        report.contains("## Throughput")
            && report.contains("## Latency")
            && report.contains("missing"),
        report);
    assertTrue(Files.size(out.resolve(LoadFiles.CHART)) > 1000);
  }

  /**
   * Without --rate the load test searches: the publisher's own capacity first (one thread, at most
   * 20 messages outstanding), then, when the subscriber did not keep up with it, bisection below
   * it. Whichever side limits it here, the answer is a rate a probe sustained.
   */
  @Test
  void withoutARateItFindsTheHighestSustainedRateAndTheSideThatLimitsIt(@TempDir Path out)
      throws Exception {
    assertEquals(
        0,
        run(
            with(
                out,
                "search",
                "--burn-in",
                "1s",
                "--duration",
                "3s",
                "--threads",
                "1",
                "--batch-messages",
                "10",
                "--max-outstanding-messages",
                "20",
                // Room to halve twice more: on a machine busy with other work (CI's other modules)
                // the publisher can fall short of rates it met alone, so the first halvings fail.
                "--max-probes",
                "5")));
    JsonNode s = JSON.readTree(out.resolve(LoadFiles.SUMMARY).toFile());
    JsonNode probes = s.get("probes");
    double max = s.get("max_sustainable_messages_per_second").asDouble();
    double publisher = probes.get(0).get("published").get("mean").asDouble();
    String limitedBy = s.get("limited_by").asText();
    if (limitedBy.equals("publisher")) {
      assertEquals(1, probes.size(), s.toString());
      assertEquals(publisher, max, 1e-9, "the publisher's own capacity");
    } else {
      assertEquals("subscriber", limitedBy, s.toString());
      assertTrue(probes.size() >= 2 && max > 0 && max < publisher, s.toString());
      assertTrue(probes.get(0).get("why").asText().startsWith("the subscriber received"));
    }
    boolean found = false;
    for (JsonNode p : probes) {
      found |=
          p.get("sustained").asBoolean()
              && p.get("target_rate").asDouble() == (limitedBy.equals("publisher") ? 0 : max);
    }
    assertTrue(found, "the answer is a probe that sustained it: " + s);
    assertTrue(
        Files.readString(out.resolve(LoadFiles.REPORT)).contains("limited by the " + limitedBy),
        "the report says which side limited it");
    assertTrue(Files.exists(out.resolve("probe-1-max").resolve(LoadFiles.REPORT)));
  }

  /** A search in which no probe can sustain its rate fails (exit 1) and says the bracket. */
  @Test
  void aSearchThatSustainsNothingFailsWithItsBracket(@TempDir Path out) throws Exception {
    assertEquals(
        1,
        run(
            with(
                out,
                "search-nothing",
                "--burn-in",
                "1s",
                "--duration",
                "2s",
                "--threads",
                "1",
                "--batch-messages",
                "10",
                "--max-outstanding-messages",
                "20",
                "--latency-slo",
                "1ms",
                "--max-probes",
                "2")));
    JsonNode s = JSON.readTree(out.resolve(LoadFiles.SUMMARY).toFile());
    assertTrue(s.get("max_sustainable_messages_per_second").isNull(), s.toString());
    assertEquals(2, s.get("probes").size());
    assertTrue(
        Files.readString(out.resolve(LoadFiles.REPORT)).contains("No rate was sustained"),
        "the report says so");
  }

  @Test
  void aPublishOnlyTestHasNoSubscriberFigures(@TempDir Path out) throws Exception {
    assertEquals(
        0,
        run(
            with(
                out,
                "publish-only",
                "--side",
                "publish",
                "--burn-in",
                "0s",
                "--duration",
                "2s",
                "--threads",
                "2",
                "--rate",
                "1000")));
    JsonNode s = JSON.readTree(out.resolve(LoadFiles.SUMMARY).toFile());
    assertTrue(
        s.has("publish") && !s.has("subscribe") && !s.get("totals").has("missing"), s.toString());
  }

  @Test
  void aTinyGridRunsEveryTrialAndResumes(@TempDir Path out) throws Exception {
    String[] args =
        with(
            out,
            "grid",
            "--grid",
            "delay=1,20ms; count=1,50",
            "--trials",
            "2",
            "--messages",
            "200",
            "--threads",
            "2");
    assertEquals(0, run(args));
    List<String> trials = Files.readAllLines(out.resolve(LoadFiles.GRID_TRIALS));
    assertEquals((4 + 1) * 2, trials.size(), "4 combinations and the baseline, 2 trials each");
    JsonNode s = JSON.readTree(out.resolve(LoadFiles.SUMMARY).toFile());
    assertEquals(BatchingGrid.BASELINE, s.get("baseline").get("combination").asText());
    assertEquals(4, s.get("combinations").size());
    for (JsonNode c : s.get("combinations")) {
      assertEquals(2, c.get("trials").asInt());
      assertEquals(0, c.get("errors").asInt());
      assertTrue(c.get("median_time_ms").asDouble() > 0);
      assertEquals(
          c.get("messages_per_second").asDouble() * c.get("time_to_publish_1m_seconds").asDouble(),
          1e6,
          1e6 * 0.001,
          "msgs/s and time to publish 1M come from the same median");
    }
    assertTrue(s.get("recommendation").asText().startsWith("Recommendation: "));
    // a rerun resumes: every trial is there already, none runs again
    assertEquals(0, run(args));
    assertEquals(10, Files.readAllLines(out.resolve(LoadFiles.GRID_TRIALS)).size());
    // another grid into the same directory is refused with the fix
    StringWriter err = new StringWriter();
    int exit =
        PubsubLoadCommand.commandLine()
            .setErr(new PrintWriter(err))
            .execute(with(out, "grid", "--grid", "count=5", "--trials", "2", "--messages", "200"));
    assertEquals(2, exit);
    assertTrue(err.toString().contains("--restart"), err.toString());
  }

  @Test
  void aSweepMeasuresEachValueAndChartsThem(@TempDir Path out) throws Exception {
    assertEquals(
        0,
        run(
            with(
                out,
                "sweep",
                "--sweep",
                "threads=1,2",
                "--rate",
                "300",
                "--burn-in",
                "0s",
                "--duration",
                "2s")));
    assertTrue(Files.exists(out.resolve("threads-1").resolve(LoadFiles.SUMMARY)));
    assertTrue(Files.exists(out.resolve("threads-2").resolve(LoadFiles.SUMMARY)));
    JsonNode s = JSON.readTree(out.resolve(LoadFiles.SUMMARY).toFile());
    assertEquals("threads", s.get("sweep").asText());
    assertEquals(2, s.get("points").size());
    assertTrue(Files.size(out.resolve(LoadFiles.SWEEP_CHART)) > 1000);
    assertTrue(
        Files.readString(out.resolve(LoadFiles.REPORT)).contains("| [2](threads-2/report.md) |"));
  }
}
