package dev.ingestbench.harness.staged;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ingestbench.analysis.scenario.ResultRecords;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.StepStatus;
import dev.ingestbench.pubsubload.LoadFiles;
import dev.ingestbench.pubsubload.LoadVerification;
import dev.ingestbench.pubsubload.PubsubLoadCommand;
import dev.ingestbench.scenario.PlannedStage;
import dev.ingestbench.scenario.Scenario;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.verification.Finding;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * A scenario stage that measures the source instead of starting jobs: {@code ingestbench
 * pubsub-load} with the stage's flags, against the run's own emulator, on a topic of its own (the
 * jobs' subscriptions see none of its messages), into {@code pubsub-load-NN-STAGE/} of the run
 * directory; its figures become the stage's results (job {@value #JOB}).
 */
public final class LoadTestStage {
  /** The results' job name for a load test's figures. */
  public static final String JOB = "pubsub-load";

  private LoadTestStage() {}

  /** Every load-test stage's flags, checked as the load test checks them, before the run starts. */
  public static void validate(ScenarioPlan plan) {
    for (PlannedStage st : plan.stages()) {
      if (st.isLoadTest()) {
        try {
          CommandLine cl = PubsubLoadCommand.commandLine();
          cl.parseArgs(
              args(st, "127.0.0.1:1", "validate", Path.of("validate")).toArray(new String[0]));
          ((PubsubLoadCommand) cl.getCommand()).validate();
        } catch (CommandLine.ParameterException | IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "stages." + st.name() + "." + Scenario.Stage.PUBSUB_LOAD + ": " + e.getMessage(), e);
        }
      }
    }
  }

  public static Path directory(Path runDir, PlannedStage st) {
    return runDir.resolve(JOB + "-" + st.marker());
  }

  public static List<String> args(PlannedStage st, String emulatorHost, String topic, Path out) {
    List<String> args = new ArrayList<>(st.loadTest().args());
    args.addAll(
        List.of(
            "--pubsub-emulator-host",
            emulatorHost,
            "--topic",
            topic + "-load-" + st.name(),
            "--subscription",
            topic + "-load-" + st.name() + "-sub",
            "--out",
            out.toString()));
    return args;
  }

  /** Runs the test; returns the stage's status and result records, or throws naming the stage. */
  public static Outcome run(
      PlannedStage st,
      ScenarioRun run,
      String emulatorHost,
      String topic,
      Path runDir,
      int segment,
      Map<String, String> runLabels)
      throws IOException {
    Path out = directory(runDir, st);
    // A killed earlier attempt of this stage may have left one: only this attempt's summary is
    // judged.
    Files.deleteIfExists(out.resolve(LoadFiles.SUMMARY));
    Instant started = Instant.now();
    StringWriter err = new StringWriter();
    int exit =
        PubsubLoadCommand.commandLine()
            .setErr(new PrintWriter(err, true))
            .execute(args(st, emulatorHost, topic, out).toArray(new String[0]));
    Instant ended = Instant.now();
    if (exit == ExitCodes.USAGE || !Files.exists(out.resolve(LoadFiles.SUMMARY))) {
      throw new IOException(
          "stage "
              + st.name()
              + ": the load test failed (exit "
              + exit
              + "): "
              + err.toString().strip());
    }
    JsonNode summary = new ObjectMapper().readTree(out.resolve(LoadFiles.SUMMARY).toFile());
    // Judged by the one policy from what the test counted, as `ingestbench pubsub-load` judges
    // itself.
    List<Finding> findings =
        LoadVerification.judge(
            st.name(),
            new ObjectMapper()
                .convertValue(summary.get("totals"), new TypeReference<Map<String, Object>>() {}));
    ResultRecords records =
        new ResultRecords(
            new ResultRecords.Step(
                run.runId(), run.scenario(), run.target(), 1, st.name(), ended.toString()));
    records.loadTest(JOB, summary, runLabels);
    StepStatus status =
        st.status(findings.isEmpty(), started.toString(), ended.toString(), segment);
    return new Outcome(status, records.records(), out, findings);
  }

  /**
   * What a load-test stage measured, as the run directory records it, and what its verification
   * found.
   */
  public record Outcome(
      StepStatus status, List<ResultRecord> records, Path directory, List<Finding> findings) {}
}
