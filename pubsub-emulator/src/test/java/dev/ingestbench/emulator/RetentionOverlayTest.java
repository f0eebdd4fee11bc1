package dev.ingestbench.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The build's patch of pstest: the retention constant becomes a variable, or the build fails. */
class RetentionOverlayTest {
  @Test
  void theRetentionConstantBecomesAVariable() throws IOException {
    String fake = "package pstest\n\n" + PstestBinary.RETENTION_CONSTANT + "\n\nfunc f() {}\n";
    assertEquals(
        "package pstest\n\nvar retentionDuration = 10 * time.Minute\n\nfunc f() {}\n",
        PstestBinary.patchRetention(fake));
  }

  @Test
  void aPstestWithoutTheConstantFailsTheBuildNamingIt() {
    IOException e =
        assertThrows(
            IOException.class,
            () -> PstestBinary.patchRetention("const retentionDuration = 20 * time.Minute"));
    assertTrue(
        e.getMessage().contains("must be revisited for this pstest version"), e.getMessage());
  }
}
