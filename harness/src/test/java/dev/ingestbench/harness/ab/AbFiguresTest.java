package dev.ingestbench.harness.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.RunJson;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code ingestbench ab} reports from its runs: whole pairs only, the builds in alternating
 * order, and a ratio that follows the candidate, not the machine's drift.
 */
class AbFiguresTest {
  @TempDir Path dir;

  @Test
  void aCandidateTenPercentFasterOnADriftingMachineIsShownAsTenPercent() throws Exception {
    List<AbFigures.Run> runs = new ArrayList<>();
    // The machine slows from pair to pair; the candidate is 10% faster within each.
    double[] machine = {1.0, 0.6, 0.8};
    for (int pair = 1; pair <= 3; pair++) {
      for (AbFigures.Build b : AbComparison.order(pair)) {
        double v = 4_000 * machine[pair - 1] * (b == AbFigures.Build.CANDIDATE ? 1.1 : 1.0);
        runs.add(
            new AbFigures.Run(
                pair, b, "consumer", 60, Map.of(AbMeasure.ROWS_PER_CPU_SECOND, v), "out"));
      }
    }
    AbFigures f =
        new AbFigures("0123456789abcdef", "the working tree at x", "2 vCPUs", runs, List.of());
    String md = f.report().markdown();
    assertTrue(
        md.contains(
            "| consumer | rows per consumer CPU-second | 4,000, 2,400, 3,200 | 4,400, 2,640, 3,520 |"
                + " +10.0% (95% CI +10.0% to +10.0%), higher in 3 of 3 pairs |"),
        md);
    assertTrue(md.startsWith("# A/B: the working tree against 0123456789ab"), md);
    Path json = dir.resolve("ab.json");
    RunJson.write(json, f);
    assertEquals(f, RunJson.read(json, AbFigures.class), "ab.json reads back");
  }

  @Test
  void anInterruptedPairIsLeftOut() {
    List<AbFigures.Run> runs =
        List.of(
            run(1, AbFigures.Build.BASELINE, 100),
            run(1, AbFigures.Build.CANDIDATE, 90),
            run(2, AbFigures.Build.CANDIDATE, 95),
            run(2, AbFigures.Build.BASELINE, 100),
            run(3, AbFigures.Build.BASELINE, 50)); // stopped before its candidate ran
    String md =
        new AbFigures("c", "w", "m", runs, List.of("--destinationTables=8")).report().markdown();
    assertTrue(md.contains("| 100, 100 | 90, 95 |"), md);
    assertTrue(md.contains("higher in 0 of 2 pairs"), md);
    assertTrue(md.contains("Every run with `--destinationTables=8`."), md);
  }

  /** A figure in one whole pair only (a run that did not record it) is left out, not fatal. */
  @Test
  void aFigureWithOneWholePairIsLeftOut() {
    String jit = AbMeasure.ROWS_PER_CPU_SECOND_WITHOUT_JIT;
    String cpu = AbMeasure.ROWS_PER_CPU_SECOND;
    List<AbFigures.Run> runs = new ArrayList<>();
    runs.add(consumer(1, AbFigures.Build.BASELINE, Map.of(cpu, 100.0, jit, 150.0)));
    runs.add(consumer(1, AbFigures.Build.CANDIDATE, Map.of(cpu, 90.0, jit, 140.0)));
    runs.add(consumer(2, AbFigures.Build.CANDIDATE, Map.of(cpu, 95.0)));
    runs.add(consumer(2, AbFigures.Build.BASELINE, Map.of(cpu, 100.0)));
    String md = new AbFigures("c", "w", "m", runs, List.of()).report().markdown();
    assertTrue(md.contains("| consumer | " + cpu + " | 100, 100 | 90, 95 |"), md);
    assertFalse(md.contains(jit), md);
  }

  private static AbFigures.Run consumer(int pair, AbFigures.Build b, Map<String, Double> figures) {
    return new AbFigures.Run(pair, b, "consumer", 60, figures, "out");
  }

  @Test
  void theBuildsAlternateSoThatNeitherAlwaysRunsFirst() {
    assertEquals(AbFigures.Build.BASELINE, AbComparison.order(1).get(0));
    assertEquals(AbFigures.Build.CANDIDATE, AbComparison.order(2).get(0));
  }

  @Test
  void badFlagsAreRefusedNamingThem() {
    Path out = dir.resolve("ab");
    List<AbMeasure> both = List.of(AbMeasure.CONSUMER, AbMeasure.ROUND);
    assertTrue(
        assertThrows(
                IllegalArgumentException.class, () -> new AbComparison("HEAD", 1, both, null, out))
            .getMessage()
            .startsWith("--pairs 1 must be 2 to 20"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class, () -> new AbComparison("HEAD", 3, both, 10L, out))
            .getMessage()
            .startsWith("--messages 10 must be 1,000 or more"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> AbMeasure.of("jmh"))
            .getMessage()
            .contains("use consumer or round"));
    assertFalse(new AbComparison("HEAD", 2, both, null, out).out().toString().startsWith("runs"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new AbComparison("HEAD", 2, both, null, out, List.of("--destinationTables=8")))
            .getMessage()
            .startsWith("--measure-arg needs one --measure"));
    AbComparison one =
        new AbComparison(
            "HEAD", 2, List.of(AbMeasure.CONSUMER), null, out, List.of("--destinationTables=8"));
    List<String> args = one.argsOf(AbMeasure.CONSUMER, dir);
    assertEquals("consume", args.get(0));
    assertEquals("--destinationTables=8", args.get(args.size() - 1), "after the measure's own");
  }

  private static AbFigures.Run run(int pair, AbFigures.Build b, double v) {
    return new AbFigures.Run(pair, b, "round", 60, Map.of(AbMeasure.ROWS_PER_SECOND, v), "out");
  }
}
