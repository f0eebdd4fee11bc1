package dev.ingestbench.analysis.phases;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.model.Timeline;
import dev.ingestbench.analysis.model.TimelineRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SteadyStateDetectorTest {
  private static final Instant T0 = Instant.parse("2026-02-12T10:54:00Z");

  private static Timeline perSecond(long... rowsPerSecond) {
    List<TimelineRow> rows = new ArrayList<>();
    for (int i = 0; i < rowsPerSecond.length; i++) {
      if (rowsPerSecond[i] > 0) {
        rows.add(
            new TimelineRow(
                T0.plusSeconds(i),
                "p",
                "d",
                "t",
                "DEFAULT",
                "OK",
                1,
                rowsPerSecond[i],
                rowsPerSecond[i] * 500));
      }
    }
    return Timeline.of(rows, 1, Timeline.dataTables());
  }

  @Test
  void findsRampUpSteadyAndDrainOfAKnownShape() {
    // 0 idle, 3 s ramp, 10 s at ~1000 with noise, 3 s tail.
    Timeline timeline =
        perSecond(
            0, 100, 300, 600, 1000, 980, 1020, 990, 1010, 1000, 1005, 995, 1000, 1000, 400, 200,
            100);
    List<Phase> phases = new SteadyStateDetector(0.8, 1).detect(timeline);
    assertEquals(List.of("ramp-up", "steady", "drain"), phases.stream().map(Phase::name).toList());
    Phase steady = phases.get(1);
    assertEquals(T0.plusSeconds(4), steady.start());
    assertEquals(T0.plusSeconds(14), steady.end());
    assertEquals(10, steady.buckets());
  }

  @Test
  void aShortDipStaysInsideTheSteadyState() {
    Timeline timeline = perSecond(1000, 1000, 1000, 0, 1000, 1000, 1000);
    List<Phase> phases = new SteadyStateDetector(0.8, 1).detect(timeline);
    assertEquals(1, phases.size());
    assertEquals(7, phases.get(0).buckets());
  }

  @Test
  void gapsInTheRawTimelineAreFilledWithZeroBuckets() {
    Timeline timeline = perSecond(10, 0, 0, 10);
    assertEquals(4, timeline.buckets().size());
    assertEquals(0, timeline.buckets().get(1).rows());
  }

  @Test
  void anEmptyTimelineHasNoPhases() {
    assertTrue(new SteadyStateDetector().detect(perSecond()).isEmpty());
  }
}
