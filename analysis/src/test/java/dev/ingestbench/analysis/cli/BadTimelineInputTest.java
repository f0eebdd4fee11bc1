package dev.ingestbench.analysis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Timelines a user may well hand over: each bad one ends in well under a second with exit 2 and one
 * line naming the file and the fix (never an OutOfMemoryError, a hang or a stack trace); the
 * harmless oddities are read.
 */
class BadTimelineInputTest {
  private static final String HEADER =
      "start_timestamp,project_id,dataset_id,table_id,stream_type,error_code,total_rows,total_input_bytes\n";
  private static final String ROWS =
      "2026-02-12 10:54:00,p,d,t,DEFAULT,OK,100,1000\n2026-02-12 10:55:00,p,d,t,DEFAULT,OK,200,2000\n";

  @TempDir Path dir;

  private Path file(String name, String content) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, content, StandardCharsets.UTF_8);
    return f;
  }

  /** Runs analyze; returns stderr, after checking the exit code and the time. */
  private String analyze(int expectedExit, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--out", dir.resolve("out").toString()));
    StringWriter err = new StringWriter();
    long started = System.nanoTime();
    int exit =
        AnalyzeCommand.commandLine()
            .setErr(new PrintWriter(err))
            .execute(all.toArray(new String[0]));
    double seconds = (System.nanoTime() - started) / 1e9;
    assertEquals(expectedExit, exit, err.toString());
    assertTrue(seconds < 1.5, "took " + seconds + " s");
    if (expectedExit != 0) {
      assertEquals(1, err.toString().strip().lines().count(), "one line: " + err);
      assertTrue(err.toString().startsWith("analyze: "), err.toString());
    }
    return err.toString();
  }

  @Test
  void aTimelineThatIsNotUtf8IsRefusedWithItsLineAndByteOffset() throws Exception {
    // A spreadsheet's Latin-1 export: "Zürich" as one byte 0xFC in the third line.
    byte[] head =
        (HEADER + "2026-02-12 10:54:00,p,d,t,DEFAULT,OK,100,1000\n")
            .getBytes(StandardCharsets.UTF_8);
    byte[] bad =
        "2026-02-12 10:55:00,p,d,Z\u00fcrich,DEFAULT,OK,200,2000\n"
            .getBytes(StandardCharsets.ISO_8859_1);
    Path f = dir.resolve("latin1.csv");
    Files.write(f, concat(head, bad));
    String err = analyze(2, "--timeline", f.toString());
    int offset = head.length + "2026-02-12 10:55:00,p,d,Z".length();
    assertTrue(
        err.contains("latin1.csv is not UTF-8: line 3, byte offset " + offset + " (0xFC)"), err);
    assertTrue(err.contains("iconv -f latin1 -t utf-8"), err);
  }

  @Test
  void aTimelineCutInTheMiddleOfACharacterIsRefusedAtItsEnd() throws Exception {
    byte[] whole =
        (HEADER + ROWS + "2026-02-12 10:56:00,p,d,\u00e9").getBytes(StandardCharsets.UTF_8);
    Path f = dir.resolve("cut.csv");
    Files.write(f, Arrays.copyOf(whole, whole.length - 1));
    String err = analyze(2, "--timeline", f.toString());
    assertTrue(
        err.contains("cut.csv is not UTF-8: line 4, byte offset " + (whole.length - 2)), err);
  }

  @Test
  void aConnectionsFileThatIsNotUtf8IsRefusedToo() throws Exception {
    Path timeline = file("t.csv", HEADER + ROWS);
    Path connections = dir.resolve("connections.csv");
    Files.write(
        connections,
        concat(
            "time,job,connections\n".getBytes(StandardCharsets.UTF_8),
            "2026-02-12T10:54:00Z,j\u00f6b,3\n".getBytes(StandardCharsets.ISO_8859_1)));
    String err =
        analyze(2, "--timeline", timeline.toString(), "--connections", connections.toString());
    assertTrue(err.contains("connections.csv is not UTF-8: line 2"), err);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  @Test
  void aStrayTimestampIsNamedNotDecadesOfEmptyMinutes() throws Exception {
    Path f = file("t.csv", HEADER + ROWS + "1262304000,p,d,t,DEFAULT,OK,5,50\n");
    String err = analyze(2, "--timeline", f.toString());
    assertTrue(err.contains("2010-01-01T00:00:00Z is far from the rest"), err);
  }

  /**
   * A header alone has nothing to analyse, whatever else is asked (it exited 3, "No value
   * present").
   */
  @Test
  void aHeaderAloneIsRefusedBeforeMonitoringIsAsked() throws Exception {
    String err =
        analyze(
            2,
            "--timeline",
            file("h.csv", HEADER).toString(),
            "--monitoring-project",
            "p",
            "--job",
            "j");
    assertTrue(err.contains("h.csv has no rows: nothing to analyse"), err);
  }

  /** Epoch 0 and epoch milliseconds are named as what they look like, with the text as written. */
  @Test
  void epochZeroAndEpochMillisecondsAreNamedWithTheirLine() throws Exception {
    String zero =
        analyze(
            2, "--timeline", file("z.csv", HEADER + ROWS + "0,p,d,t,DEFAULT,OK,5,50\n").toString());
    assertTrue(zero.contains("z.csv line 4: start_timestamp '0' is not a time"), zero);
    String millis =
        analyze(
            2,
            "--timeline",
            file("m.csv", HEADER + "1770890040000,p,d,t,DEFAULT,OK,5,50\n").toString());
    assertTrue(
        millis.contains(
            "m.csv line 2: start_timestamp '1770890040000' looks like epoch milliseconds"),
        millis);
    assertTrue(!millis.contains("Exception"), millis);
  }

  @Test
  void aBlankCountOrShiftedColumnsAreNamedNotReadAsZeroOrAWrongNumber() throws Exception {
    String blank =
        analyze(
            2,
            "--timeline",
            file("b.csv", HEADER + ROWS + "2026-02-12 10:56:00,p,d,t,DEFAULT,OK,,50\n").toString());
    assertTrue(blank.contains("b.csv line 4: total_rows is blank"), blank);
    String shifted =
        analyze(
            2,
            "--timeline",
            file("s.csv", HEADER + ROWS + "2026-02-12 10:56:00,p,d,t,a,b,DEFAULT,OK,5,50\n")
                .toString());
    assertTrue(shifted.contains("s.csv line 4 has 10 fields where the header has 8"), shifted);
    assertTrue(shifted.contains("a comma that is not in quotes"), shifted);
  }

  @Test
  void aNegativeCountNamesItsLine() throws Exception {
    Path f = file("t.csv", HEADER + ROWS + "2026-02-12 10:56:00,p,d,t,DEFAULT,OK,-5,50\n");
    String err = analyze(2, "--timeline", f.toString());
    assertTrue(err.contains("line 4: total_rows -5 is negative"), err);
  }

  @Test
  void aRepeatedRowIsNotCountedTwice() throws Exception {
    Path f = file("t.csv", HEADER + ROWS + "2026-02-12 10:54:00,p,d,t,DEFAULT,OK,100,1000\n");
    String err = analyze(2, "--timeline", f.toString());
    assertTrue(err.contains("line 4 repeats line 2"), err);
  }

  @Test
  void aFilePastedAfterItselfIsCaughtThoughItsTimesGoBack() throws Exception {
    Path f = file("t.csv", HEADER + ROWS + ROWS);
    String err = analyze(2, "--timeline", f.toString());
    assertTrue(err.contains("line 4 repeats line 2"), err);
  }

  @Test
  void theSameFileTwiceOrOverlappingExportsAreRefused() throws Exception {
    Path f = file("t.csv", HEADER + ROWS);
    assertTrue(
        analyze(
                2,
                "--timeline",
                f.toString(),
                "--timeline",
                dir.resolve(".").resolve("t.csv").toString())
            .contains("is given twice"));
    Path g =
        file(
            "u.csv",
            HEADER
                + "2026-02-12 10:55:00,p,d,t,DEFAULT,OK,200,2000\n2026-02-12 10:56:00,p,d,t,DEFAULT,OK,300,3000\n");
    assertTrue(
        analyze(2, "--timeline", f.toString(), "--timeline", g.toString()).contains("overlap"));
  }

  @Test
  void brokenJsonNamesItsLine() throws Exception {
    Path f =
        file(
            "t.jsonl",
            "{\"start_timestamp\":\"2026-02-12T10:54:00Z\",\"table_id\":\"t\",\"total_rows\":1,\"total_input_bytes\":2}\n"
                + "{\"start_timestamp\":\"2026-02-12T10:55:00Z\",\"table_id\":\"t\",\"total_rows\":1,\n");
    String err = analyze(2, "--timeline", f.toString());
    assertTrue(
        err.contains("t.jsonl line 2: not valid JSON"),
        err); // the record that starts on line 2 is cut off at the end of the file
    Path g =
        file(
            "d.json",
            "[{\"start_timestamp\":\"2026-02-12T10:54:00Z\",\"table_id\":\"t\",\"total_rows\":1,\"total_input_bytes\":2},"
                + "{\"start_timestamp\":\"2026-02-12T10:54:00Z\",\"table_id\":\"t\",\"total_rows\":1,\"total_input_bytes\":2}]");
    assertTrue(
        analyze(2, "--timeline", g.toString()).contains("record 2 (line 1) repeats record 1"));
  }

  @Test
  void missingColumnsEmptyFilesAndWordsForNumbersAreNamed() throws Exception {
    assertTrue(
        analyze(
                2,
                "--timeline",
                file("a.csv", "start_timestamp,table_id\n2026-02-12 10:54:00,t\n").toString())
            .contains("has no column 'total_rows'"));
    assertTrue(analyze(2, "--timeline", file("b.csv", "").toString()).contains("is empty"));
    assertTrue(
        analyze(
                2,
                "--timeline",
                file("c.csv", HEADER + "2026-02-12 10:54:00,p,d,t,DEFAULT,OK,many,1\n").toString())
            .contains("'many' is not a whole number"));
    assertTrue(
        analyze(
                2,
                "--timeline",
                file("e.csv", HEADER + "yesterday,p,d,t,DEFAULT,OK,1,1\n").toString())
            .contains("is not a timestamp"));
  }

  @Test
  void aByteOrderMarkIsRead() throws Exception {
    analyze(0, "--timeline", file("bom.csv", "\uFEFF" + HEADER + ROWS).toString());
    analyze(
        0,
        "--timeline",
        file(
                "bom.jsonl",
                "\uFEFF{\"start_timestamp\":\"2026-02-12T10:54:00Z\",\"table_id\":\"t\","
                    + "\"total_rows\":1,\"total_input_bytes\":2}\n")
            .toString());
  }

  @Test
  void aReversedPhaseIsRefusedUnlessTheTimelineCrossesMidnight() throws Exception {
    Path f = file("t.csv", HEADER + ROWS);
    String err = analyze(2, "--timeline", f.toString(), "--phase", "A1=10:55..10:54");
    assertTrue(
        err.contains("--phase A1=10:55..10:54 ends before it starts")
            && err.contains("A1=10:54..10:55"),
        err);
    Path night =
        file(
            "n.csv",
            HEADER
                + "2026-02-12 23:58:00,p,d,t,DEFAULT,OK,100,1000\n"
                + "2026-02-12 23:59:00,p,d,t,DEFAULT,OK,100,1000\n2026-02-13 00:00:00,p,d,t,DEFAULT,OK,100,1000\n"
                + "2026-02-13 00:01:00,p,d,t,DEFAULT,OK,100,1000\n");
    analyze(
        0,
        "--timeline",
        night.toString(),
        "--phase",
        "A=23:58..00:01",
        "--phase",
        "B=00:00..00:01");
  }
}
