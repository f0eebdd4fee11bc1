package dev.ingestbench.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each stage kind says its flags in the file's order, and how long it can last. */
class StageKindTest {
  @Test
  void aLoadTestKeepsTheFilesOrderAndMeasuresAtOneRate() {
    Map<String, String> flags = new LinkedHashMap<>();
    flags.put("message_size", "1000");
    flags.put("burn_in", "5s");
    flags.put("duration", "20s");
    StageKind.LoadTest load = new StageKind.LoadTest(flags);
    assertEquals(
        List.of("--message-size", "1000", "--burn-in", "5s", "--duration", "20s", "--rate", "0"),
        load.args());
    assertEquals(Duration.ofSeconds(95), load.longest(null), "5 s burn-in, 20 s, 70 s to drain");
    flags.put("rate", "5000");
    assertEquals("5000", new StageKind.LoadTest(flags).args().get(7), "a rate given is kept");
  }

  @Test
  void aSearchLastsItsWarmUpAndEveryProbe() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("probe_duration", "30s");
    settings.put("max_probes", "2");
    StageKind.MaxRateSearch search = new StageKind.MaxRateSearch("a", settings);
    assertEquals(
        List.of("--find-max-rate", "--probe-duration", "30s", "--max-probes", "2"), search.args());
    // 300 s warm-up, 2 probes of 5 s settle + 30 s + the 10 s SLO + 180 s catch-up, 60 s after.
    assertEquals(Duration.ofSeconds(810), search.longest(null));
  }

  @Test
  void withoutSettingsEachKindLastsItsDefaults() {
    assertEquals(
        Duration.ofSeconds(110),
        new StageKind.LoadTest(Map.of()).longest(null),
        "10 s + 30 s + 70 s");
    assertEquals(
        Duration.ofSeconds(300 + 10 * 215 + 60),
        new StageKind.MaxRateSearch("a", Map.of()).longest(null),
        "10 probes of 5 + 20 + 10 + 180 s");
  }

  @Test
  void aJobsStageLastsItsHoldOrItsMax() {
    assertEquals(Duration.ofMinutes(3), new StageKind.Jobs().longest(Duration.ofMinutes(3)));
  }
}
