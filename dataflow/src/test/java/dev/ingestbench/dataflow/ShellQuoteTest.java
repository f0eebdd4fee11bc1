package dev.ingestbench.dataflow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShellQuoteTest {
  @Test
  void plainWordsStayAndAnythingAShellReadsIsSingleQuoted() {
    assertEquals("--project=ingestbench-test", ShellQuote.word("--project=ingestbench-test"));
    assertEquals(
        "gs://b/templates/ingestbench-consumer.json",
        ShellQuote.word("gs://b/templates/ingestbench-consumer.json"));
    assertEquals("'rides; rm -rf ~'", ShellQuote.word("rides; rm -rf ~"));
    assertEquals(
        "'--parameters=^;^a=1,2;b=$(id)'", ShellQuote.word("--parameters=^;^a=1,2;b=$(id)"));
    assertEquals("'it'\\''s'", ShellQuote.word("it's"));
    assertEquals("''", ShellQuote.word(""));
    assertEquals("gcloud 'a b' c", ShellQuote.line(List.of("gcloud", "a b", "c")));
  }
}
