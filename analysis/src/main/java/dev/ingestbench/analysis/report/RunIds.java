package dev.ingestbench.analysis.report;

import java.nio.file.Path;

/**
 * Checks that a round directory's files come from one round: each names the run id of
 * {@code round.json}. A file of another round (a reused directory, a process of an earlier round
 * still writing) would lend this report its numbers.
 */
final class RunIds {
  private final Path dir;
  private final String runId;

  RunIds(Path dir, String runId) {
    this.dir = dir;
    this.runId = runId;
  }

  /** Throws naming the file, both rounds and the fix when {@code fileRunId} is not this round's. */
  void require(String file, String fileRunId) {
    if (!runId.equals(fileRunId)) {
      throw new IllegalArgumentException(dir.resolve(file) + " is from "
          + (fileRunId == null ? "a run without a run id" : "round " + fileRunId) + ", not from round " + runId
          + " of round.json: the directory mixes files of two rounds, so no report is made from it; run the"
          + " round again into an empty --out (or with --force)");
    }
  }
}
