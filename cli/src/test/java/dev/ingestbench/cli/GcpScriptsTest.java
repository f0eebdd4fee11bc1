package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GCP scripts' promises that can be checked without GCP: dry runs print, no project refuses.
 */
@Tag("e2e")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class GcpScriptsTest {
  private static final Path SCRIPTS = Path.of("..", "scripts").toAbsolutePath().normalize();

  private record Run(int exit, String output) {}

  private static Run run(String script, String... args) throws Exception {
    return runScript(SCRIPTS.resolve(script), args);
  }

  /**
   * flex-template.sh's words: ACTION MODULE, valid --project/--region/--bucket, then {@code more}.
   */
  private static String[] flex(String action, String module, String... more) {
    List<String> words =
        new ArrayList<>(
            List.of(
                action,
                module,
                "--project",
                "my-proj",
                "--region",
                "us-central1",
                "--bucket",
                "bkt"));
    words.addAll(List.of(more));
    return words.toArray(String[]::new);
  }

  private static Run runScript(Path script, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", script.toString()));
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
    Run build = run("flex-template.sh", flex("build", "consumer", "--dry-run"));
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
            flex("build", "consumer", "--base-image", "gcr.io/x/base:latest", "--dry-run"));
    assertEquals(2, tagged.exit(), tagged.output());
    assertTrue(tagged.output().contains("it must name a digest"), tagged.output());
  }

  @Test
  void aTemplateParameterWithCommasSurvivesGcloudsListSplitting() throws Exception {
    Run withCommas =
        run(
            "flex-template.sh",
            flex(
                "run",
                "publisher",
                "--dry-run",
                "--",
                "--createSubscriptions=a,b",
                "--numMessages=5"));
    assertEquals(0, withCommas.exit(), withCommas.output());
    // gcloud's alternative delimiter: ^~^ then the list joined with ~ (printed shell-quoted)
    assertTrue(
        withCommas.output().contains("--parameters=\\^~\\^createSubscriptions=a\\,b~numMessages=5"),
        withCommas.output());
    Run plain =
        run(
            "flex-template.sh",
            flex("run", "publisher", "--dry-run", "--", "--numMessages=5", "--topic=t"));
    assertTrue(plain.output().contains("--parameters=numMessages=5\\,topic=t"), plain.output());
  }

  /** A copy of flex-template.sh under {@code root/scripts} with the given pin file. */
  private static Path flexTemplateCopy(Path root, String pinFile) throws Exception {
    Path scripts = Files.createDirectories(root.resolve("scripts"));
    Files.copy(SCRIPTS.resolve("flex-template.sh"), scripts.resolve("flex-template.sh"));
    Files.writeString(scripts.resolve("flex-template.base-image"), pinFile);
    return scripts.resolve("flex-template.sh");
  }

  @Test
  void flexTemplateRefusesEveryNameThatCouldBreakAShellLineOrItsYaml() throws Exception {
    List<List<String>> bad =
        List.of(
            List.of("--project", "my proj", "--project"),
            List.of("--project", "my-proj\"]", "--project"),
            List.of("--region", "us-central1;id", "--region"),
            List.of("--bucket", "bkt' x", "--bucket"),
            List.of("--bucket", "gs://bkt", "--bucket"),
            List.of("--repository", "Repo:latest", "--repository"),
            List.of("--base-image", "gcr.io/x/y@sha256:abc\ninjected: 1", "--base-image"));
    for (List<String> c : bad) {
      List<String> args = new ArrayList<>(List.of(flex("build", "consumer", "--dry-run")));
      int at = args.indexOf(c.get(0));
      if (at >= 0) {
        args.set(at + 1, c.get(1));
      } else {
        args.addAll(List.of(c.get(0), c.get(1)));
      }
      Run r = run("flex-template.sh", args.toArray(String[]::new));
      assertEquals(2, r.exit(), c + ": " + r.output());
      assertTrue(
          r.output().contains(c.get(2) + " '") && r.output().contains("is not valid"), r.output());
      assertTrue(!r.output().contains("+ "), "refused before any command: " + r.output());
    }
  }

  @Test
  void flexTemplateBuildsOnThePinnedDigestInValidYaml(@TempDir Path root) throws Exception {
    String digest =
        "gcr.io/dataflow-templates-base/java17-template-launcher-base@sha256:" + "0f".repeat(32);
    Path script = flexTemplateCopy(root, "# pinned\n" + digest + "\n");
    Run r = runScript(script, flex("build", "publisher", "--region", "europe-west4", "--dry-run"));
    assertEquals(0, r.exit(), r.output());
    assertTrue(r.output().contains("# base image: " + digest), r.output());
    Path config = root.resolve("publisher/target/flex-cloudbuild.yaml");
    JsonNode yaml = new ObjectMapper(new YAMLFactory()).readTree(config.toFile());
    JsonNode args = yaml.get("steps").get(0).get("args");
    assertEquals("BASE_IMAGE=" + digest, args.get(2).asText(), Files.readString(config));
    String image = args.get(4).asText();
    assertTrue(
        image.startsWith("europe-west4-docker.pkg.dev/my-proj/ingestbench/ingestbench-publisher:"),
        image);
    assertEquals(image, yaml.get("images").get(0).asText());
  }

  @Test
  void flexTemplateBuildWithoutAPinnedDigestRefusesAndNamesTheFix(@TempDir Path root)
      throws Exception {
    Path script = flexTemplateCopy(root, "# nothing pinned yet\n");
    Run r = runScript(script, flex("build", "consumer"));
    assertEquals(2, r.exit(), r.output());
    assertTrue(
        r.output().contains("pins no digest yet")
            && r.output().contains("flex-template.sh pin-base-image --project my-proj"),
        r.output());
    assertTrue(!r.output().contains("+ "), "nothing built, nothing launched: " + r.output());
    Run pin = runScript(script, "pin-base-image", "--project", "my-proj", "--dry-run");
    assertEquals(0, pin.exit(), pin.output());
    assertTrue(
        pin.output().contains("java17-template-launcher-base:latest --project=my-proj"),
        pin.output());
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
