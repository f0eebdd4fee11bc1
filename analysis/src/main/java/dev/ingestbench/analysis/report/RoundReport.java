package dev.ingestbench.analysis.report;

import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes {@code report.md}, {@code summary.json} and the charts of a round directory. */
public final class RoundReport {
  private RoundReport() {}

  public static RoundSummary write(Path dir) throws IOException {
    RoundAnalysis analysis = RoundAnalysis.of(dir);
    RoundSummary summary = RoundSummaryJson.of(analysis);
    RunJson.write(dir.resolve(RunFiles.SUMMARY), summary);
    Charts.throughput(analysis, dir.resolve(RunFiles.THROUGHPUT_CHART));
    Charts.cpu(analysis, dir.resolve(RunFiles.CPU_CHART));
    if (analysis.maxRate().isPresent()) {
      Charts.maxRate(analysis.maxRate().get(), dir.resolve(RunFiles.MAX_RATE_CHART));
    }
    if (!analysis.connections().isEmpty()) {
      Charts.connections(analysis, dir.resolve(RunFiles.CONNECTIONS_CHART));
    }
    Files.writeString(
        dir.resolve(RunFiles.REPORT), RoundMarkdown.render(analysis), StandardCharsets.UTF_8);
    return summary;
  }
}
