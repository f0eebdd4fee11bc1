package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

/**
 * Every command's {@code --help} renders cleanly: picocli formats descriptions with {@link
 * String#format}, so a bare {@code %} in one ("utilisation in %") prints a warning to stderr and
 * the raw text to the user.
 */
class HelpTextTest {

  @TestFactory
  Stream<DynamicTest> everyCommandsHelpRendersWithoutWarnings() {
    List<CommandLine> commands = new ArrayList<>();
    collect(IngestbenchCommand.commandLine(), commands);
    return commands.stream()
        .map(c -> DynamicTest.dynamicTest(c.getCommandSpec().qualifiedName(), () -> check(c)));
  }

  /**
   * {@code ingestbench --help} lists each command by the first line of its description (or its
   * header): a description wrapped by hand into several lines showed there cut mid-sentence ("...
   * throughput and latency, as Google's").
   */
  @TestFactory
  Stream<DynamicTest> everyCommandIsListedByAWholeSentence() {
    List<CommandLine> commands = new ArrayList<>();
    collect(IngestbenchCommand.commandLine(), commands);
    return commands.stream()
        .skip(1) // ingestbench itself: it is not listed
        .map(
            c ->
                DynamicTest.dynamicTest(
                    c.getCommandSpec().qualifiedName(),
                    () -> {
                      CommandLine.Model.UsageMessageSpec usage = c.getCommandSpec().usageMessage();
                      String[] listed =
                          usage.header().length > 0 ? usage.header() : usage.description();
                      assertTrue(listed.length > 0, "a description");
                      String summary = listed[0].strip();
                      assertTrue(
                          summary.endsWith("."),
                          "the line `ingestbench --help` shows ends a sentence: " + summary);
                    }));
  }

  private static void collect(CommandLine command, List<CommandLine> into) {
    into.add(command);
    command.getSubcommands().values().forEach(sub -> collect(sub, into));
  }

  private static void check(CommandLine command) {
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    String usage;
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      usage = command.getUsageMessage();
    } finally {
      System.setErr(err);
    }
    assertEquals(
        "", captured.toString(StandardCharsets.UTF_8), "picocli warned while rendering the help");
    assertFalse(usage.contains("%n"), "an unformatted %n in the help:\n" + usage);
  }
}
