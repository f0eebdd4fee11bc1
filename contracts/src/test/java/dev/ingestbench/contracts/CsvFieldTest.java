package dev.ingestbench.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CsvFieldTest {
  @Test
  void plainNamesStayAndTheOthersAreQuoted() {
    assertEquals("taxi_rides", CsvField.of("taxi_rides"));
    assertEquals("\"a,b\"", CsvField.of("a,b"));
    assertEquals("\"say \"\"hi\"\"\"", CsvField.of("say \"hi\""));
    assertEquals("\"two\nlines\"", CsvField.of("two\nlines"));
    assertEquals("", CsvField.of(null));
  }
}
