package dev.ingestbench.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A job's directory name comes from what a client sent (its trace id): it must stay inside --out.
 */
class RunFilesTest {
  @Test
  void aJobNameNeverLeavesTheRoundsDirectory() {
    assertEquals("job-1", RunFiles.jobDirectory("job-1"));
    assertEquals("___", RunFiles.jobDirectory(".."));
    assertEquals("__", RunFiles.jobDirectory("."));
    assertEquals("_", RunFiles.jobDirectory(""));
    assertEquals(".._etc_passwd", RunFiles.jobDirectory("../etc/passwd"));
    assertEquals("a_b", RunFiles.jobDirectory("a/b"));
    assertEquals(100, RunFiles.jobDirectory("x".repeat(5_000)).length());
  }
}
