package dev.ingestbench.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One list of Storage Write API cases ({@code conformance/cases.json}, each quoting the reference
 * it follows), sent by both of Google's official clients to one emulator: the Java client in this
 * JVM, and the Python client ({@code google-cloud-bigquery-storage} from PyPI) in a virtualenv this
 * test creates under {@code target/}. Both clients' observations are judged by the same
 * expectations. Only a machine without Python 3 skips the Python half, and says so.
 */
@Tag("e2e")
// A long timeout: the Python half first installs its client from PyPI into a virtualenv.
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ConformanceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static JsonNode suite;
  private static Path casesFile;
  private static BigQueryEmulator server;

  @BeforeAll
  @Timeout(value = 600, unit = TimeUnit.SECONDS)
  static void start() throws Exception {
    casesFile =
        Path.of(
            Objects.requireNonNull(ConformanceTest.class.getResource("/conformance/cases.json"))
                .toURI());
    suite = JSON.readTree(casesFile.toFile());
    server = BigQueryEmulator.start(EmulatorSettings.defaults());
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void theJavaClientSeesBigQuerysAnswers() throws Exception {
    try (OfficialClient java = new OfficialClient(server)) {
      List<List<Map<String, Object>>> observed =
          new ConformanceCasesJava(java.client, server.restUrl(), suite).run("j");
      assertConforms("Java client", JSON.valueToTree(observed));
    }
  }

  @Test
  void thePythonClientSeesBigQuerysAnswers() throws Exception {
    Path python = PythonClient.virtualenv(casesFile.resolveSibling("requirements.txt"));
    Process run =
        new ProcessBuilder(
                python.toString(),
                casesFile.resolveSibling("run_cases.py").toString(),
                casesFile.toString(),
                server.grpcAddress(),
                server.restUrl(),
                "p")
            .redirectError(ProcessBuilder.Redirect.PIPE)
            .start();
    byte[] out = run.getInputStream().readAllBytes();
    String err = new String(run.getErrorStream().readAllBytes());
    assertTrue(run.waitFor(2, TimeUnit.MINUTES), "run_cases.py finished");
    assertEquals(0, run.exitValue(), "run_cases.py: " + err);
    assertConforms("Python client", JSON.readTree(out));
  }

  /**
   * Every expected key of every step, compared with what the client observed; all mismatches at
   * once.
   */
  private static void assertConforms(String client, JsonNode observed) {
    List<String> mismatches = new ArrayList<>();
    int caseNo = 0;
    for (JsonNode c : suite.get("cases")) {
      JsonNode steps = c.get("steps");
      for (int s = 0; s < steps.size(); s++) {
        JsonNode expect = steps.get(s).get("expect");
        JsonNode seen = observed.get(caseNo).get(s);
        for (Iterator<String> keys = expect.fieldNames(); keys.hasNext(); ) {
          String key = keys.next();
          JsonNode want = expect.get(key);
          JsonNode got = seen.has(key) ? seen.get(key) : JSON.nullNode();
          boolean same =
              key.equals("commit_time") && want.asText().equals("set")
                  ? !got.asText().equals("empty") && !got.isNull()
                  : want.equals(got) || want.toString().equals(got.toString()); // 1 and 1L alike
          if (!same) {
            mismatches.add(
                String.format(
                    "%s | step %d (%s): %s expected %s, observed %s (all: %s)",
                    c.get("name").asText(),
                    s + 1,
                    steps.get(s).get("op").asText(),
                    key,
                    want,
                    got,
                    seen));
          }
        }
      }
      caseNo++;
    }
    assertTrue(
        mismatches.isEmpty(),
        client
            + " disagrees with the reference in "
            + mismatches.size()
            + " place(s):\n"
            + String.join("\n", mismatches));
  }

  /** The Python client in a virtualenv under target/, created once per requirements file. */
  static final class PythonClient {
    static Path virtualenv(Path requirements) throws Exception {
      String python3 = onPath("python3");
      Assumptions.assumeTrue(
          python3 != null,
          "Python 3 is not on PATH: the Python half of the conformance suite is skipped (install python3 to run it)");
      Path venv = Path.of("target", "conformance-venv").toAbsolutePath();
      Path marker = venv.resolve("installed-requirements.txt");
      String wanted = Files.readString(requirements);
      Path bin = venv.resolve("bin").resolve("python");
      if (Files.exists(marker) && Files.readString(marker).equals(wanted) && Files.exists(bin)) {
        return bin;
      }
      Path log = Path.of("target", "conformance-venv.log").toAbsolutePath();
      run(log, python3, "-m", "venv", "--clear", venv.toString());
      run(
          log,
          bin.toString(),
          "-m",
          "pip",
          "install",
          "--quiet",
          "--disable-pip-version-check",
          "-r",
          requirements.toString());
      Files.writeString(marker, wanted);
      return bin;
    }

    private static void run(Path log, String... command) throws Exception {
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      if (!p.waitFor(5, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new AssertionError(String.join(" ", command) + " took over 5 minutes; see " + log);
      }
      if (p.exitValue() != 0) {
        throw new AssertionError(
            String.join(" ", command)
                + " failed (exit "
                + p.exitValue()
                + "):\n"
                + Files.readString(log));
      }
    }

    private static String onPath(String program) {
      for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
        Path candidate = Path.of(dir, program);
        if (Files.isExecutable(candidate)) {
          return candidate.toString();
        }
      }
      return null;
    }
  }
}
