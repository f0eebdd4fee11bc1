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
 *   <li><b>Pull.</b> pstest's Pull walks the subscription's messages until it has found enough that
 *       no one holds, so every Pull passed over every outstanding message (read, not yet acked:
 *       Beam acks once a checkpoint is done, tens of thousands of messages later): a quarter of the
 *       emulator's CPU in a default round, and more the larger the backlog. A queue of the messages
 *       that became available (published, sought back by Seek, nacked, or their ack deadline
 *       passed), oldest first, is what Pull takes instead; an entry whose message was acked or
 *       delivered since is skipped. With a filter or message ordering Pull is pstest's own. With a
 *       dead-letter policy, a message past its attempts is published to the dead-letter topic once
 *       (pstest's own Pull does so on every Pull: its ack of the message is by message ID, which
 *       matches no ack ID); ingestbench sets none.
 * </ul>
 */
final class PstestPatch {
  /** The edits to {@code fake.go}: each anchor, and what it becomes. */
  record Edit(String why, String anchor, String replacement) {}

  private static final String RETENTION_CONSTANT = "const retentionDuration = 10 * time.Minute";

  /** The end of {@code topic.publish}: each subscription's copy of a message made. */
  private static final String PUBLISHED = "\t\t\tstreamIndex: -1,\n\t\t}\n\t}\n}\n\n";

  private static final String NACK =
      "\t\tm.makeAvailable()\n"
          + "\t\tm.proto.AckId = \"\" // Ensure subsequent modacks for this same AckId fail\n";

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
                  + "\tlastMaintenance.Delete(s)\n"),
          new Edit(
              "a published message reaching a subscription",
              PUBLISHED + "type subscription struct {\n",
              PUBLISHED.replace("\t}\n}\n", "\t\ts.pushAvailable(pm.MessageId)\n\t}\n}\n")
                  + "type subscription struct {\n"
                  + "\tavailable availableQueue // added by ingestbench's build: what Pull takes\n"),
          new Edit(
              "Pull's walk over every message",
              "\tvar msgs []*pb.ReceivedMessage\n\tfilterMsgs(s.msgs, s.filter)\n",
              "\tif s.filter == nil && !s.proto.EnableMessageOrdering {\n"
                  + "\t\treturn s.pullAvailable(max, now)\n"
                  + "\t}\n"
                  + "\tvar msgs []*pb.ReceivedMessage\n\tfilterMsgs(s.msgs, s.filter)\n"),
          new Edit(
              "an ack deadline that passed",
              "\t\t\tm.makeAvailable()\n\t\t}\n\t\tpubTime",
              "\t\t\tm.makeAvailable()\n\t\t\ts.pushAvailable(id)\n\t\t}\n\t\tpubTime"),
          new Edit("a nack", NACK, NACK + "\t\ts.pushAvailable(msgID)\n"),
          new Edit(
              "a seek's messages delivered again",
              "\t\t\tstreamIndex: -1,\n\t\t}\n\t}\n\treturn &pb.SeekResponse{}, nil\n",
              "\t\t\tstreamIndex: -1,\n\t\t}\n\t\tsub.pushAvailable(m.ID)\n\t}\n"
                  + "\treturn &pb.SeekResponse{}, nil\n"));

  /** Added to pstest's package beside {@code fake.go}: what the edits call. */
  static final String ADDED_FILE = "ingestbench_patch.go";

  static final String ADDED =
      "package pstest\n\n"
          + "// Added by ingestbench's build (dev.ingestbench.emulator.PstestPatch says why).\n\n"
          + "import (\n\t\"fmt\"\n\t\"sync\"\n\t\"time\"\n\n\tpb \"cloud.google.com/go/pubsub/v2/apiv1/pubsubpb\"\n)\n\n"
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
          + "}\n"
          + "\n"
          + "// availableQueue holds, oldest first, the IDs of a subscription's messages that became\n"
          + "// available for delivery: published, nacked, or their ack deadline passed. An entry can be\n"
          + "// stale (the message acked or delivered since): Pull skips those.\n"
          + "type availableQueue struct {\n"
          + "\tids  []string\n"
          + "\thead int\n"
          + "}\n"
          + "\n"
          + "// pushAvailable queues id for Pull. Called with s.mu held.\n"
          + "func (s *subscription) pushAvailable(id string) {\n"
          + "\tq := &s.available\n"
          + "\tq.ids = append(q.ids, id)\n"
          + "\tif len(q.ids)-q.head > 2*len(s.msgs)+4096 {\n"
          + "\t\ts.compactAvailable()\n"
          + "\t}\n"
          + "}\n"
          + "\n"
          + "// compactAvailable keeps one entry for each message still held and not outstanding: the\n"
          + "// queue stays in proportion to the subscription, also when streams deliver instead of Pull.\n"
          + "func (s *subscription) compactAvailable() {\n"
          + "\tq := &s.available\n"
          + "\tkept := make([]string, 0, len(s.msgs))\n"
          + "\tseen := make(map[string]bool, len(s.msgs))\n"
          + "\tfor _, id := range q.ids[q.head:] {\n"
          + "\t\tif m, ok := s.msgs[id]; ok && !m.outstanding() && !seen[id] {\n"
          + "\t\t\tseen[id] = true\n"
          + "\t\t\tkept = append(kept, id)\n"
          + "\t\t}\n"
          + "\t}\n"
          + "\tq.ids, q.head = kept, 0\n"
          + "}\n"
          + "\n"
          + "// pullAvailable is pstest's pull without a filter or message ordering: it takes the oldest\n"
          + "// available messages from the queue, where pstest's walks every message the subscription holds,\n"
          + "// outstanding ones too, on every Pull. Called with s.mu held.\n"
          + "func (s *subscription) pullAvailable(max int, now time.Time) []*pb.ReceivedMessage {\n"
          + "\tvar msgs []*pb.ReceivedMessage\n"
          + "\tq := &s.available\n"
          + "\tfor q.head < len(q.ids) && len(msgs) < max {\n"
          + "\t\tid := q.ids[q.head]\n"
          + "\t\tq.ids[q.head] = \"\"\n"
          + "\t\tq.head++\n"
          + "\t\tm, ok := s.msgs[id]\n"
          + "\t\tif !ok || m.outstanding() {\n"
          + "\t\t\tcontinue\n"
          + "\t\t}\n"
          + "\t\tif s.deadLetterCandidate(m) {\n"
          + "\t\t\ts.ack(id)\n"
          + "\t\t\ts.publishToDeadLetter(m)\n"
          + "\t\t\tcontinue\n"
          + "\t\t}\n"
          + "\t\t(*m.deliveries)++\n"
          + "\t\tif s.proto.DeadLetterPolicy != nil {\n"
          + "\t\t\tm.proto.DeliveryAttempt = int32(*m.deliveries)\n"
          + "\t\t}\n"
          + "\t\tm.proto.AckId = fmt.Sprintf(\"%s:%d\", m.proto.Message.MessageId, *m.deliveries)\n"
          + "\t\tm.ackDeadline = now.Add(s.ackTimeout)\n"
          + "\t\tmsgs = append(msgs, m.proto)\n"
          + "\t}\n"
          + "\tif q.head > 4096 && 2*q.head > len(q.ids) {\n"
          + "\t\tq.ids = append([]string(nil), q.ids[q.head:]...)\n"
          + "\t\tq.head = 0\n"
          + "\t}\n"
          + "\treturn msgs\n"
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
