package dev.ingestbench.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.model.Timeline;
import dev.ingestbench.analysis.model.TimelineRow;
import dev.ingestbench.analysis.report.TimelineAnalysis;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The regional quota against per-minute MB/s: throttled (sawtooth), above it unthrottled, near it,
 * or not at all.
 */
class QuotaSawtoothTest {
  private static final Instant T0 = Instant.parse("2026-02-12T10:00:00Z");

  /** One row per minute at each MB/s (500-byte rows), 2% noise. */
  private static List<TimelineRow> minutes(double... mbPerSecond) {
    Random random = new Random(11);
    List<TimelineRow> rows = new ArrayList<>();
    for (int i = 0; i < mbPerSecond.length; i++) {
      long bytes =
          Math.round(
              mbPerSecond[i] * 60e6 * (mbPerSecond[i] > 0 ? 1 + 0.02 * random.nextGaussian() : 0));
      rows.add(
          new TimelineRow(
              T0.plusSeconds(60L * i),
              "p",
              "d",
              "t",
              "COMMITTED",
              "",
              bytes / 1_000_000,
              bytes / 500,
              bytes));
    }
    return rows;
  }

  private static List<Verdict> verdicts(double quota, double... mbPerSecond) {
    return TimelineAnalysis.of(
            minutes(mbPerSecond),
            Map.of(),
            0,
            List.of(),
            new Diagnoser.Topology(1, 3, 3, true, 0, Map.of(), quota))
        .diagnosis();
  }

  private static List<String> kinds(List<Verdict> verdicts) {
    return verdicts.stream().map(Verdict::kind).distinct().toList();
  }

  @Test
  void burstsThenThrottledMinutesAreTheSawtoothWithItsShape() {
    List<Verdict> v =
        verdicts(
            Diagnoser.QUOTA_MB_PER_SECOND,
            400,
            400,
            60,
            60,
            60,
            400,
            400,
            60,
            60,
            60,
            400,
            400,
            60,
            60,
            60,
            400);
    Verdict saw =
        v.stream()
            .filter(x -> "quota-throttled".equals(x.kind()))
            .findFirst()
            .orElseThrow(() -> new AssertionError(v.toString()));
    assertTrue(saw.evidence().startsWith("3 cycle(s) of 5.0 minutes: bursts at 4"), saw.evidence());
    assertTrue(
        saw.evidence().contains("(above the 314.6 MB/s quota)")
            && saw.evidence().contains("then throttled at 6"),
        saw.evidence());
    assertTrue(
        saw.evidence().matches(".*; 19\\d\\.\\d MB/s over the cycles \\(6\\d% of the quota\\).*"),
        "(2 x 400 + 3 x 60) / 5 = 196 MB/s, 62% of 314.6: " + saw.evidence());
    assertTrue(
        v.stream().noneMatch(x -> "quota-exceeded-unthrottled".equals(x.kind())), v.toString());
  }

  @Test
  void theSawtoothsLevelsAreBurstsAndThrottlesNotWritersJoiningAndLeaving() {
    TimelineAnalysis a =
        TimelineAnalysis.of(
            minutes(400, 400, 400, 60, 60, 60, 400, 400, 400, 60, 60, 60, 400, 400, 400),
            Map.of(),
            0,
            List.of(),
            new Diagnoser.Topology(1, 3, 3, true, 0));
    assertEquals(
        List.of("W1 burst 1", "W1 throttled 1", "W1 burst 2", "W1 throttled 2", "W1 burst 3"),
        a.allDetectedPhases().stream().map(p -> p.name()).toList());
    List<String> kinds = a.diagnosis().stream().map(Verdict::kind).toList();
    assertTrue(
        kinds.contains("quota-throttled")
            && !kinds.contains("linear-scaling")
            && !kinds.contains("contention"),
        a.diagnosis().toString());
  }

  @Test
  void aboveTheQuotaWithoutASawtoothIsBurstHeadroom() {
    double[] mb = new double[12];
    Arrays.fill(mb, 340);
    assertEquals(
        List.of("quota-exceeded-unthrottled"), kinds(verdicts(Diagnoser.QUOTA_MB_PER_SECOND, mb)));
  }

  @Test
  void nearTheQuotaIsSaidAsSuch() {
    double[] mb = new double[12];
    Arrays.fill(mb, 290);
    assertEquals(List.of("quota-near"), kinds(verdicts(Diagnoser.QUOTA_MB_PER_SECOND, mb)));
  }

  @Test
  void aJobSwitchWithEmptyMinutesIsNotThrottling() {
    // a threshold on "high then low" alone would call 400 -> 0 -> 400 a sawtooth; empty minutes
    // wrote nothing
    List<Verdict> v =
        verdicts(
            Diagnoser.QUOTA_MB_PER_SECOND, 400, 400, 400, 0, 0, 400, 400, 400, 0, 0, 400, 400, 400);
    assertTrue(v.stream().noneMatch(x -> "quota-throttled".equals(x.kind())), v.toString());
  }

  @Test
  void aMultiRegionQuotaIsGivenByTheUser() {
    List<Verdict> v =
        verdicts(3_221, 400, 400, 60, 60, 60, 400, 400, 60, 60, 60, 400, 400, 60, 60, 60, 400);
    assertTrue(
        v.stream().noneMatch(x -> x.kind() != null && x.kind().startsWith("quota")), v.toString());
  }

  /** ±30% uniform noise around {@code level} MB/s, a minute each. */
  private static double[] noisy(double level, int minutes, long seed) {
    Random random = new Random(seed);
    double[] mb = new double[minutes];
    for (int i = 0; i < minutes; i++) {
      mb[i] = level * (0.7 + 0.6 * random.nextDouble());
    }
    return mb;
  }

  @Test
  void noiseOfThirtyPercentNeverSawsWhateverItsLevel() {
    double q = Diagnoser.QUOTA_MB_PER_SECOND;
    for (double share : new double[] {0.4, 0.65, 0.8, 0.95, 1.1}) {
      for (long seed = 1; seed <= 20; seed++) {
        double[] mb = noisy(share * q, 30, seed);
        assertEquals(
            0,
            Diagnoser.sawteeth(Timeline.of(minutes(mb), 60, Timeline.dataTables()), q),
            share + "/" + seed);
        List<Verdict> v = verdicts(q, mb);
        assertTrue(
            v.stream().noneMatch(x -> "quota-throttled".equals(x.kind())),
            share + "/" + seed + ": " + v);
      }
    }
  }

  @Test
  void aRampUpOrDownIsNotASawtooth() {
    double q = Diagnoser.QUOTA_MB_PER_SECOND;
    double[] up = new double[20];
    double[] down = new double[20];
    for (int i = 0; i < 20; i++) {
      up[i] = 1.5 * q * (i + 1) / 20;
      down[19 - i] = up[i];
    }
    for (double[] mb : List.of(up, down)) {
      List<Verdict> v = verdicts(q, mb);
      assertTrue(v.stream().noneMatch(x -> "quota-throttled".equals(x.kind())), v.toString());
    }
  }

  @Test
  void burstsJustBelowTheQuotaThenHalfOfItAreNotThrottling() {
    // What the 80% rule called a sawtooth: 270 then 150 MB/s against 314.6, i.e. a rate that varies
    // by 1.8x
    List<Verdict> v =
        verdicts(
            Diagnoser.QUOTA_MB_PER_SECOND, 270, 270, 150, 150, 270, 270, 150, 150, 270, 270, 150);
    assertTrue(v.stream().noneMatch(x -> "quota-throttled".equals(x.kind())), v.toString());
  }
}
