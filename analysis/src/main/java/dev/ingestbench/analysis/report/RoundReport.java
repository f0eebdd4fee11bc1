package dev.ingestbench.analysis.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Writes {@code report.md}, {@code summary.json} and the charts of a round directory. */
public final class RoundReport {
  private RoundReport() {}

  public static Map<String, Object> write(Path dir) throws IOException {
    System.setProperty("java.awt.headless", "true");
    RoundAnalysis analysis = RoundAnalysis.of(dir);
    Map<String, Object> summary = RoundSummaryJson.of(analysis);
    new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .writeValue(dir.resolve(RoundFiles.SUMMARY).toFile(), summary);
    Charts.throughput(analysis, dir.resolve(RoundFiles.THROUGHPUT_CHART));
    Charts.cpu(analysis, dir.resolve(RoundFiles.CPU_CHART));
    Files.writeString(dir.resolve(RoundFiles.REPORT), RoundMarkdown.render(analysis), StandardCharsets.UTF_8);
    return summary;
  }
}
