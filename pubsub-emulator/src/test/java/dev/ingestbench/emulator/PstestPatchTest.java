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
  }
}
