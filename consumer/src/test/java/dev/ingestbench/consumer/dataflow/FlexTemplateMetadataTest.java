package dev.ingestbench.consumer.dataflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ingestbench.consumer.ConsumerOptions;
import dev.ingestbench.pubsub.FlexTemplateMetadata;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlexTemplateMetadataTest {
  private static final Path METADATA = Path.of("flex-template", "metadata.json");

  @Test
  void consumerMetadataAgreesWithConsumerOptions() throws Exception {
    assertEquals(List.of(), FlexTemplateMetadata.problems(METADATA, ConsumerOptions.class));
    JsonNode m = new ObjectMapper().readTree(METADATA.toFile());
    assertTrue(
        m.path("streaming").asBoolean()
            && m.path("supportsAtLeastOnce").asBoolean()
            && m.path("supportsExactlyOnce").asBoolean());
  }

  @Test
  void theCheckCatchesEachKindOfDisagreement(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("metadata.json");
    Files.writeString(
        bad,
        """
        {"parameters": [
          {"name": "noSuchOption", "label": "x", "helpText": "x", "isOptional": true},
          {"name": "destinationTables", "label": "Tables", "helpText": "x", "regexes": ["^.*$"], "isOptional": true},
          {"name": "rowFormat", "label": "Format", "helpText": "x", "regexes": ["^[0-9]+$"], "isOptional": true},
          {"name": "rowEncoding", "label": "Encoding", "helpText": "x", "isOptional": false}
        ]}""");
    List<String> problems = FlexTemplateMetadata.problems(bad, ConsumerOptions.class);
    assertTrue(
        problems.stream().anyMatch(p -> p.startsWith("noSuchOption: not an option")),
        problems.toString());
    assertTrue(
        problems.stream()
            .anyMatch(
                p -> p.startsWith("destinationTables: a int option, yet its regexes accept 'abc'")),
        problems.toString());
    assertTrue(
        problems.stream()
            .anyMatch(p -> p.startsWith("rowFormat: its regexes reject the option's default")),
        problems.toString());
    assertTrue(
        problems.stream()
            .anyMatch(
                p ->
                    p.startsWith(
                        "rowEncoding: required in metadata.json, yet the option has a default")),
        problems.toString());
  }
}
