package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.contracts.RoundSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A real default round on 2 vCPUs (src/test/resources/recorded/round-default): the consumer used
 * 47% of the machine, and the processes around it as much again. Its diagnosis must say the machine
 * was the limit, with each share from its own processes_cpu.csv, not "no bottleneck: consumer CPU
 * below 90%" as it did before.
 */
class RecordedRoundTest {
  private static final Path ROUND = Path.of("src/test/resources/recorded/round-default");

  @Test
  void theDefaultRoundOnTwoVcpusIsMachineBoundAndSaysWhoUsedTheMachine() throws Exception {
    List<Verdict> verdicts = RoundDiagnosis.of(RoundAnalysis.of(ROUND));
    assertEquals(1, verdicts.size(), verdicts.toString());
    Verdict v = verdicts.get(0);
    assertEquals("Machine-bound: 95% of 2 vCPUs", v.verdict());
    assertTrue(
        v.evidence()
            .startsWith(
                "the machine 95% busy (consumer 47%, live publisher 30%, Pub/Sub emulator 14%,"
                    + " BigQuery emulator 4%) over the 46 s steady window"),
        v.evidence());
    assertTrue(
        v.evidence()
            .contains(
                "the harness (emulators, broker, publishers) used 48.6% of the machine and the"
                    + " pipeline 46.6%"),
        v.evidence());
  }

  @Test
  void itsSummaryAndHeadlineSayThePipelinesAndTheHarnesssShareOfTheMachine() throws Exception {
    RoundAnalysis a = RoundAnalysis.of(ROUND);
    Phase steady = a.steady().orElseThrow();
    // From the raw file: a sample stamped t covers [t-1, t); consumers are the pipeline.
    double pipeline = 0;
    double harness = 0;
    List<String> lines = Files.readAllLines(ROUND.resolve("processes_cpu.csv"));
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      long covered = Long.parseLong(f[0]) - 1;
      if (covered >= steady.start().getEpochSecond() && covered < steady.end().getEpochSecond()) {
        if (f[1].startsWith("consumer")) {
          pipeline += Double.parseDouble(f[2]);
        } else {
          harness += Double.parseDouble(f[2]);
        }
      }
    }
    double capacity = a.vcpus() * (double) steady.buckets();
    RoundSummary summary = RoundSummaryJson.of(a);
    assertEquals(pipeline / capacity, summary.consumerShare(), 1e-4);
    assertEquals(harness / capacity, summary.harnessShare(), 1e-4);
    assertEquals(0.47, summary.consumerShare(), 0.005, "the consumer's 47%");
    assertTrue(summary.harnessShare() > 0.45, "the harness used about as much: " + summary);
    String md = RoundMarkdown.render(a);
    assertTrue(
        md.contains(
            "Over the 46 s steady window the pipeline used 46.6% of the machine's 2 vCPUs and the"
                + " harness that stands in for Google's services 48.6% (by process: consumer 47%,"),
        md);
  }

  @Test
  void itsQuotaAndConnectionCountersSayNeitherLimited() throws Exception {
    RoundAnalysis a = RoundAnalysis.of(ROUND);
    assertEquals(0, a.emulator().orElseThrow().throttledAppends());
    assertTrue(
        RoundDiagnosis.of(a).stream()
            .noneMatch(v -> v.verdict().contains("quota") || v.verdict().contains("connection")));
  }

  @Test
  void itsReportWritesLatenciesAndCountsWithThousandsSeparatorsAsEveryOtherFigure()
      throws Exception {
    String md = RoundMarkdown.render(RoundAnalysis.of(ROUND));
    assertTrue(
        md.contains(
            "| Latency p50 / p99, live messages (publish → visible) | 7,199 / 12,543 ms |"
                + " 100,000 rows published after the consumer caught up"),
        md);
    assertTrue(md.contains("| 62,463 / 74,751 ms | 200,000 rows: backlog"), md);
    assertTrue(md.contains("| 56,575 / 74,239 ms | 300,000 rows, HDR histogram |"), md);
  }
}
