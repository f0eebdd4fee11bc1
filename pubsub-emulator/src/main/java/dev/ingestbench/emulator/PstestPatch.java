package dev.ingestbench.emulator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the build changes in its vendored copy of pstest, and why; each edit is anchored on a line
 * of pstest's {@code fake.go}, and a pstest without that line fails the build naming it (a new
 * pstest version must be looked at, not patched blindly).
 *
 * <ul>
 *   <li><b>Retention.</b> pstest deletes a message no subscriber has taken 10 minutes after it was
 *       published, a constant of its code whatever the subscription says: a backlog drained slower
 *       than that loses messages the pipeline never saw, which a run would call lost. The constant
 *       becomes a variable, {@code SetRetention} sets it, {@code main.go}'s {@code -retention} (a
 *       week by default).
 *   <li><b>The sweep.</b> pstest sweeps every message of a subscription (expired ack deadlines,
 *       retention) on every Pull and, in each subscription's delivery loop, every 10 ms, under the
 *       server's one lock: a 200,000-message backlog cost it a quarter of the machine at ~17,000
 *       msg/s, and a larger one slowed every Pull until the emulator, not the pipeline, was what a
 *       drain measured. The sweep runs at most once per {@code maintenanceInterval} (a second) per
 *       subscription, so a message whose ack deadline passed is delivered again up to a second
 *       later than pstest would; and the delivery loop, which serves StreamingPull, does nothing
 *       while no stream is open (Beam's Pub/Sub reader uses Pull).
 * </ul>
 */
final class PstestPatch {
  /** The edits to {@code fake.go}: each anchor, and what it becomes. */
  record Edit(String why, String anchor, String replacement) {}

  private static final String RETENTION_CONSTANT = "const retentionDuration = 10 * time.Minute";

  static final List<Edit> EDITS =
      List.of(
          new Edit(
              "the retention constant",
              RETENTION_CONSTANT,
              RETENTION_CONSTANT.replace("const ", "var ")),
          new Edit(
              "the sweep of a subscription's messages",
              "func (s *subscription) maintainMessages(now time.Time) {\n",
              "func (s *subscription) maintainMessages(now time.Time) {\n"
                  + "\tif !s.maintenanceDue(now) {\n"
                  + "\t\treturn\n"
                  + "\t}\n"),
          new Edit(
              "the delivery loop",
              "func (s *subscription) deliver() {\n\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n",
              "func (s *subscription) deliver() {\n\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n"
                  + "\tif len(s.streams) == 0 {\n"
                  + "\t\treturn\n"
                  + "\t}\n"),
          new Edit(
              "a subscription's stop",
              "func (s *subscription) stop() {\n\tclose(s.done)\n",
              "func (s *subscription) stop() {\n\tclose(s.done)\n"
                  + "\tlastMaintenance.Delete(s)\n"));

  /** Added to pstest's package beside {@code fake.go}: what the edits call. */
  static final String ADDED_FILE = "ingestbench_patch.go";

  static final String ADDED =
      "package pstest\n\n"
          + "// Added by ingestbench's build (dev.ingestbench.emulator.PstestPatch says why).\n\n"
          + "import (\n\t\"sync\"\n\t\"time\"\n)\n\n"
          + "// SetRetention sets how long a message no subscriber has taken is kept\n"
          + "// (pstest's own is 10 minutes).\n"
          + "func SetRetention(d time.Duration) { retentionDuration = d }\n\n"
          + "// maintenanceInterval is how often a subscription's messages are swept for\n"
          + "// expired ack deadlines and retention (pstest's own: on every Pull and every 10 ms).\n"
          + "const maintenanceInterval = time.Second\n\n"
          + "// lastMaintenance: *subscription -> time.Time of its last sweep; a stopped\n"
          + "// subscription's entry is deleted with it.\n"
          + "var lastMaintenance sync.Map\n\n"
          + "// maintenanceDue says whether s is due a sweep, and if so records now.\n"
          + "// Called with s.mu held.\n"
          + "func (s *subscription) maintenanceDue(now time.Time) bool {\n"
          + "\tif last, ok := lastMaintenance.Load(s); ok && now.Sub(last.(time.Time)) < maintenanceInterval {\n"
          + "\t\treturn false\n"
          + "\t}\n"
          + "\tlastMaintenance.Store(s, now)\n"
          + "\treturn true\n"
          + "}\n";

  private PstestPatch() {}

  /** Patches the vendored pstest package in {@code pstestDir}. */
  static void apply(Path pstestDir) throws IOException {
    Path fake = pstestDir.resolve("fake.go");
    Files.writeString(
        fake, patch(Files.readString(fake, StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    Files.writeString(pstestDir.resolve(ADDED_FILE), ADDED, StandardCharsets.UTF_8);
  }

  /**
   * {@code fake.go} with every edit made; fails naming the first whose anchor is missing or stands
   * more than once (an edit is made in one place, the one it was written for).
   */
  static String patch(String fakeGo) throws IOException {
    String patched = fakeGo;
    for (Edit e : EDITS) {
      int at = patched.indexOf(e.anchor());
      if (at < 0 || patched.indexOf(e.anchor(), at + 1) >= 0) {
        throw new IOException(
            "pstest's fake.go "
                + (at < 0 ? "no longer has " : "has more than one place for ")
                + e.why()
                + " ('"
                + e.anchor().strip().lines().findFirst().orElse("")
                + "'): PstestPatch must be revisited for this pstest version");
      }
      patched = patched.replace(e.anchor(), e.replacement());
    }
    return patched;
  }

  /**
   * Everything the patch writes, for the build's hash: a changed patch builds again. Each piece is
   * prefixed by its length, so that text moved from one piece to the next changes the hash too.
   */
  static String fingerprint() {
    StringBuilder all = new StringBuilder();
    List<String> pieces = new java.util.ArrayList<>(List.of(ADDED_FILE, ADDED));
    EDITS.forEach(e -> pieces.addAll(List.of(e.anchor(), e.replacement())));
    pieces.forEach(p -> all.append(p.length()).append(':').append(p));
    return all.toString();
  }
}
