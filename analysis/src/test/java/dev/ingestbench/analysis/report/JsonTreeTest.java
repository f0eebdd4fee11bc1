package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonTreeTest {
  @TempDir Path dir;

  @Test
  void writesTheSameTextAsAnIndentingObjectMapper() throws Exception {
    Map<String, Object> tree = new LinkedHashMap<>();
    tree.put("name", "steady \"1\" é");
    tree.put("rows", 288_000L);
    tree.put("writers", 2);
    tree.put("rate", 1234.5678);
    tree.put("nan", Double.NaN);
    tree.put("significant", true);
    tree.put("missing", null);
    tree.put("phases", List.of(Map.of("kind", "steady"), List.of(), Arrays.asList(1, null)));
    tree.put("empty", Map.of());
    Path ours = dir.resolve("ours.json");
    Path mapper = dir.resolve("mapper.json");

    JsonTree.write(tree, ours);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(mapper.toFile(), tree);

    assertEquals(Files.readString(mapper), Files.readString(ours));
  }

  @Test
  void refusesAValueItHasNoRenderingFor() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> JsonTree.write(Map.of("at", List.of(1, Instant.EPOCH)), dir.resolve("x.json")));
    assertTrue(e.getMessage().contains("java.time.Instant"), e.getMessage());
    // What was written is cut short, not closed into JSON that reads as a whole report.
    assertThrows(
        JsonProcessingException.class,
        () -> new ObjectMapper().readTree(dir.resolve("x.json").toFile()));
  }
}
