package dev.ingestbench.harness.process;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.harness.source.PubsubEventSender;
import dev.ingestbench.pubsub.PublishOutcomes;
import dev.ingestbench.pubsub.PubsubPaths;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a test of a local target needs beside its real servers and scripted processes: a publisher
 * that says it published, a child's flag, a server's death, and the check that nothing was left
 * running.
 */
public final class ScriptedRuns {
  private ScriptedRuns() {}

  /**
   * A backlog publisher that says it published what it was asked to (to {@code topic}), and exits
   * at once; it publishes nothing.
   */
  public static ScriptedProcess publisher(List<String> command, String topic) throws IOException {
    long count = Long.parseLong(flag(command, "--numMessages"));
    RunJson.write(
        Path.of(flag(command, "--resultFile")),
        new PublisherResult(
            topic,
            count,
            count,
            0,
            count * 500,
            500,
            0,
            Instant.now().toString(),
            1,
            count,
            1,
            flag(command, "--runId")));
    ScriptedProcess p = new ScriptedProcess(command, written -> ExitCodes.OK);
    p.exitNow(ExitCodes.OK);
    return p;
  }

  /**
   * A backlog publisher that publishes {@code --numMessages} messages to its Pub/Sub topic (each a
   * few bytes: their event index is what is counted), then says so and exits.
   */
  public static ScriptedProcess publishingPublisher(List<String> command, String topic)
      throws IOException {
    long count = Long.parseLong(flag(command, "--numMessages"));
    PublishOutcomes outcomes = new PublishOutcomes();
    try (PubsubEventSender sender =
        new PubsubEventSender(
            flag(command, "--pubsubEmulatorHost"),
            PubsubPaths.topic(flag(command, "--project"), "topic", flag(command, "--topic")))) {
      for (long i = 0; i < count; i++) {
        sender.send(i, new byte[] {'{', '}'}, System.currentTimeMillis(), outcomes);
      }
      sender.flush();
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e);
    }
    if (outcomes.acknowledged() != count) {
      throw new IllegalStateException(
          "published " + outcomes.acknowledged() + " of " + count + ": " + outcomes.firstFailure());
    }
    return publisher(command, topic);
  }

  /** The value of {@code --name=VALUE} in {@code command}, or null. */
  public static String flag(List<String> command, String name) {
    return command.stream()
        .filter(a -> a.startsWith(name + "="))
        .map(a -> a.substring(name.length() + 1))
        .findFirst()
        .orElse(null);
  }

  /** Kills the Pub/Sub emulator this JVM started (SIGKILL), as a server that dies. */
  public static void killPstest() {
    ProcessHandle.current()
        .descendants()
        .filter(p -> p.info().commandLine().orElse("").contains("pstest"))
        .forEach(ProcessHandle::destroyForcibly);
  }

  /** No server this JVM started, and none of {@code scripted}, is left running. */
  public static void assertNothingRunning(List<ScriptedProcess> scripted) throws Exception {
    for (ProcessHandle child : ProcessHandle.current().descendants().toList()) {
      String command = child.info().commandLine().orElse("");
      if (command.contains("pstest") || command.contains("bigquery")) {
        child.onExit().get(30, TimeUnit.SECONDS);
        assertFalse(child.isAlive(), "left running: " + command);
      }
    }
    for (ScriptedProcess p : scripted) {
      assertFalse(p.isAlive(), "a consumer left running: " + p.command());
    }
  }
}
