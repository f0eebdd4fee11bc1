package dev.ingestbench.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The build's patch of pstest: every edit made, or the build fails naming the one it cannot. */
class PstestPatchTest {
  private static String fakeGo() {
    StringBuilder fake = new StringBuilder("package pstest\n\n");
    PstestPatch.EDITS.forEach(e -> fake.append(e.anchor()).append("\n// body\n}\n\n"));
    return fake.toString();
  }

  @Test
  void everyEditIsMade() throws IOException {
    String patched = PstestPatch.patch(fakeGo());
    assertTrue(patched.contains("var retentionDuration = 10 * time.Minute"), patched);
    assertTrue(patched.contains("\tclose(s.done)\n\tlastMaintenance.Delete(s)\n"), patched);
    assertTrue(
        patched.contains(
            "func (s *subscription) maintainMessages(now time.Time) {\n"
                + "\tif !s.maintenanceDue(now) {\n"),
        patched);
    assertTrue(
        patched.contains("\tdefer s.mu.Unlock()\n\tif len(s.streams) == 0 {\n\t\treturn\n"),
        patched);
    assertEquals(
        PstestPatch.EDITS.size(),
        PstestPatch.EDITS.stream().filter(e -> patched.contains(e.replacement())).count());
  }

  @Test
  void aPstestWithoutAnAnchorFailsTheBuildNamingIt() {
    String changed = fakeGo().replace("const retentionDuration = 10 * time.Minute", "const x = 1");
    IOException e = assertThrows(IOException.class, () -> PstestPatch.patch(changed));
    assertTrue(e.getMessage().contains("the retention constant"), e.getMessage());
    assertTrue(e.getMessage().contains("must be revisited for this pstest version"));
    String noSweep = fakeGo().replace("maintainMessages(now time.Time)", "sweep(now time.Time)");
    IOException sweep = assertThrows(IOException.class, () -> PstestPatch.patch(noSweep));
    assertTrue(sweep.getMessage().contains("the sweep"), sweep.getMessage());
    String twice = fakeGo() + PstestPatch.EDITS.get(2).anchor();
    IOException ambiguous = assertThrows(IOException.class, () -> PstestPatch.patch(twice));
    assertTrue(
        ambiguous.getMessage().contains("has more than one place for the delivery loop"),
        ambiguous.getMessage());
  }

  /** The pstest the build vendors, where this machine's Go module cache holds it. */
  @Test
  void theRealPstestHasEveryAnchorOnce() throws IOException {
    java.nio.file.Path fake =
        java.nio.file.Path.of(
            System.getProperty("user.home"),
            "go/pkg/mod/cloud.google.com/go/pubsub/v2@v2.8.0/pstest/fake.go");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        java.nio.file.Files.isRegularFile(fake), "no Go module cache with pstest v2.8.0 here");
    String patched = PstestPatch.patch(java.nio.file.Files.readString(fake));
    PstestPatch.EDITS.forEach(e -> assertTrue(patched.contains(e.replacement()), e.why()));
  }
}
