package dev.ingestbench.analysis.report;

import dev.ingestbench.contracts.CsvChecksums;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Checks that a round directory's files come from one round: each JSON file names the run id of
 * {@code round.json}, and each CSV file has the SHA-256 the round recorded for it. A file of
 * another round (a reused directory, a process of an earlier round still writing) would lend this
 * report its numbers.
 */
final class RunIds {
  private final Path dir;
  private final String runId;

  RunIds(Path dir, String runId) {
    this.dir = dir;
    this.runId = runId;
  }

  /**
   * Checks the CSV files against {@code csv_checksums.json}: its run id must be this round's, and
   * each CSV the analysis reads must be there with the recorded SHA-256. A round directory without
   * it (one written before checksums existed, a consumer-only run) is not checked.
   */
  void requireCsvs(List<String> csvFiles) throws IOException {
    Path recorded = dir.resolve(RunFiles.CSV_CHECKSUMS);
    if (!Files.exists(recorded)) {
      return;
    }
    CsvChecksums sums = RunJson.read(recorded, CsvChecksums.class);
    require(RunFiles.CSV_CHECKSUMS, sums.runId());
    for (String file : csvFiles) {
      Path csv = dir.resolve(file);
      if (!Files.exists(csv)) {
        continue;
      }
      String expected = sums.sha256() == null ? null : sums.sha256().get(file);
      if (expected == null || !expected.equals(CsvChecksums.sha256(csv))) {
        throw new IllegalArgumentException(
            csv
                + (expected == null ? " was not written by" : " was changed after")
                + " round "
                + runId
                + " ("
                + RunFiles.CSV_CHECKSUMS
                + " records every CSV the round wrote, with its"
                + " SHA-256): the directory mixes files of two rounds, or the file was edited, so no report is made"
                + " from it; run the round again into an empty --out (or with --force)");
      }
    }
  }

  /** Throws naming the file, both rounds and the fix when {@code fileRunId} is not this round's. */
  void require(String file, String fileRunId) {
    if (!runId.equals(fileRunId)) {
      throw new IllegalArgumentException(
          dir.resolve(file)
              + " is from "
              + (fileRunId == null ? "a run without a run id" : "round " + fileRunId)
              + ", not from round "
              + runId
              + " of round.json: the directory mixes files of two rounds, so no report is made from it; run the"
              + " round again into an empty --out (or with --force)");
    }
  }
}
