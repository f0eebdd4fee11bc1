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
    assertEquals(Duration.ofSeconds(5 + 20 + 70), load.longest(null));
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
    assertEquals(Duration.ofSeconds(300 + 2 * (5 + 30 + 10 + 180) + 60), search.longest(null));
  }

  @Test
  void aJobsStageLastsItsHoldOrItsMax() {
    assertEquals(Duration.ofMinutes(3), new StageKind.Jobs().longest(Duration.ofMinutes(3)));
  }
}
