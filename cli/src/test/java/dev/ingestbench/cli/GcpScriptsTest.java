package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GCP scripts' promises that can be checked without GCP: dry runs print, no project refuses.
 */
class GcpScriptsTest {
  private static final Path SCRIPTS = Path.of("..", "scripts").toAbsolutePath().normalize();

  private record Run(int exit, String output) {}

  private static Run run(String script, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", SCRIPTS.resolve(script).toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    return new Run(p.exitValue(), out);
  }

  @Test
  void setupDryRunPrintsEveryResourceForNTablesAndTheirDeadLetterTable() throws Exception {
    Run r =
        run(
            "gcp-setup.sh",
            "--project",
            "my-proj",
            "--tables",
            "3",
            "--subscriptions",
            "a-sub,b-sub",
            "--dry-run");
    assertEquals(0, r.exit(), r.output());
    for (String expected :
        List.of(
            "gcloud pubsub topics create taxi-rides --project=my-proj",
            "gcloud pubsub subscriptions create a-sub --project=my-proj --topic=taxi-rides --ack-deadline=60",
            "gcloud pubsub subscriptions create b-sub",
            "mk --dataset --location=us-central1 my-proj:ingestbench",
            "mk --table my-proj:ingestbench.taxi_rides_0",
            "mk --table my-proj:ingestbench.taxi_rides_2",
            "mk --table my-proj:ingestbench.taxi_rides_dlq")) {
      assertTrue(r.output().contains(expected), expected + " in:\n" + r.output());
    }
  }

  @Test
  void everyScriptRefusesToRunWithoutAProject() throws Exception {
    for (String script : List.of("gcp-setup.sh", "gcp-cleanup.sh")) {
      Run r = run(script, "--dry-run");
      assertEquals(2, r.exit(), script);
      assertTrue(r.output().contains("--project is required"), r.output());
    }
    Run flex =
        run("flex-template.sh", "run", "consumer", "--region", "r", "--bucket", "b", "--dry-run");
    assertEquals(2, flex.exit());
  }

  @Test
  void cleanupAndFlexTemplateDryRunsPrintTheirCommands() throws Exception {
    Path record = Files.createTempFile("gcp-created", ".txt");
    Files.writeString(
        record,
        "topic taxi-rides\nsubscription taxi-rides-a\ndataset my-proj:ingestbench\n"
            + "table my-proj:ingestbench.taxi_rides\n");
    Run cleanup =
        run("gcp-cleanup.sh", "--project", "my-proj", "--record", record.toString(), "--dry-run");
    assertTrue(
        cleanup
            .output()
            .contains("gcloud pubsub topics delete taxi-rides --project=my-proj --quiet"),
        cleanup.output());
    assertTrue(
        cleanup.output().contains("rm -f --table my-proj:ingestbench.taxi_rides"),
        cleanup.output());
    assertTrue(cleanup.output().contains("rm -f --dataset my-proj:ingestbench"), cleanup.output());
    assertTrue(
        !cleanup.output().contains("rm -r"),
        "never recursive: a table someone added keeps its dataset");
    assertTrue(!cleanup.output().contains("taxi-rides-b"), "only what setup recorded it created");
    assertTrue(
        cleanup.output().indexOf("--table") < cleanup.output().indexOf("--dataset"),
        "tables before their dataset");
    Files.delete(record);
    Run build =
        run(
            "flex-template.sh",
            "build",
            "consumer",
            "--project",
            "my-proj",
            "--region",
            "us-central1",
            "--bucket",
            "bkt",
            "--dry-run");
    assertEquals(0, build.exit(), build.output());
    assertTrue(
        build
            .output()
            .contains(
                "gcloud dataflow flex-template build gs://bkt/templates/ingestbench-consumer.json"),
        build.output());
    assertTrue(
        Pattern.compile(
                "--image=us-central1-docker\\.pkg\\.dev/my-proj/ingestbench/ingestbench-consumer:"
                    + "[0-9a-f]{12}(-dirty)?\\s")
            .matcher(build.output())
            .find(),
        "tagged with the commit, never :latest: " + build.output());
    assertTrue(
        build.output().contains("java17-template-launcher-base@sha256:"),
        "the base image by digest: " + build.output());
    Run tagged =
        run(
            "flex-template.sh",
            "build",
            "consumer",
            "--project",
            "p",
            "--region",
            "r",
            "--bucket",
            "b",
            "--base-image",
            "gcr.io/x/base:latest",
            "--dry-run");
    assertEquals(2, tagged.exit(), tagged.output());
    assertTrue(tagged.output().contains("--base-image must name a digest"), tagged.output());
  }

  @Test
  void aTemplateParameterWithCommasSurvivesGcloudsListSplitting() throws Exception {
    Run withCommas =
        run(
            "flex-template.sh",
            "run",
            "publisher",
            "--project",
            "p",
            "--region",
            "r",
            "--bucket",
            "b",
            "--dry-run",
            "--",
            "--createSubscriptions=a,b",
            "--numMessages=5");
    assertEquals(0, withCommas.exit(), withCommas.output());
    // gcloud's alternative delimiter: ^~^ then the list joined with ~ (printed shell-quoted)
    assertTrue(
        withCommas.output().contains("--parameters=\\^~\\^createSubscriptions=a\\,b~numMessages=5"),
        withCommas.output());
    Run plain =
        run(
            "flex-template.sh",
            "run",
            "publisher",
            "--project",
            "p",
            "--region",
            "r",
            "--bucket",
            "b",
            "--dry-run",
            "--",
            "--numMessages=5",
            "--topic=t");
    assertTrue(plain.output().contains("--parameters=numMessages=5\\,topic=t"), plain.output());
  }

  @Test
  void cleanupWithoutSetupsRecordDeletesNothing(@TempDir Path dir) throws Exception {
    Path none = dir.resolve("gcp-created.txt");
    Run real = run("gcp-cleanup.sh", "--project", "my-proj", "--record", none.toString());
    assertEquals(2, real.exit(), real.output());
    assertTrue(
        real.output().contains("no record of what gcp-setup.sh created")
            && !real.output().contains("+ "),
        real.output());
    Run setup =
        run("gcp-setup.sh", "--project", "my-proj", "--record", none.toString(), "--dry-run");
    assertTrue(
        setup.output().contains("# record in " + none + ": dataset my-proj:ingestbench"),
        setup.output());
  }
}
