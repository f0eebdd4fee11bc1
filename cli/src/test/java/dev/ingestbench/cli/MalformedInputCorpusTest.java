package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import picocli.CommandLine;

/**
 * The malformed-input corpus: every case in {@code malformed/cases.psv} (flags of round, consume
 * and publish; timelines and phases for analyze; scenario files for run) must end with its exit
 * code and a message naming the problem, in one line without a stack trace, before anything is
 * started (the first case of a JVM pays for loading Beam's option registrars, a few seconds). Bad
 * messages are {@code DeadLetterRoutingTest}'s corpus; bad script arguments {@code
 * GcpScriptsTest}'s.
 */
class MalformedInputCorpusTest {
  private static final Path DIR = Paths.get("src/test/resources/malformed").toAbsolutePath();

  @TempDir Path out;

  @ParameterizedTest(name = "{0}")
  @CsvFileSource(resources = "/malformed/cases.psv", delimiter = '|', numLinesToSkip = 1)
  void isRefusedWithTheReason(String name, int exit, String says, String args) {
    String[] argv =
        args.replace("{dir}", DIR.toString())
            .replace("{out}", out.resolve("o").toString())
            .split(" ");
    StringWriter err = new StringWriter();
    CommandLine cli = IngestbenchCommand.commandLine();
    cli.setErr(new PrintWriter(err, true));
    long started = System.nanoTime();
    int actual = cli.execute(argv);
    double seconds = (System.nanoTime() - started) / 1e9;
    String text = err.toString();
    assertEquals(exit, actual, name + ": " + text);
    assertTrue(text.contains(says), name + ": expected '" + says + "' in: " + text);
    assertFalse(
        text.contains("\tat ") || text.contains("Exception in thread"),
        name + ": a stack trace: " + text);
    assertTrue(seconds < 15, name + ": took " + seconds + " s");
  }
}
