package dev.ingestbench.publisher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.pubsub.FlexTemplateMetadata;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlexTemplateMetadataTest {
  @Test
  void publisherMetadataAgreesWithPublisherOptions() throws Exception {
    assertEquals(
        List.of(),
        FlexTemplateMetadata.problems(
            Path.of("flex-template", "metadata.json"), PublisherOptions.class));
  }

  @Test
  void aRequiredOptionMissingFromTheMetadataIsReported(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("metadata.json");
    Files.writeString(bad, "{\"parameters\": []}");
    List<String> problems = FlexTemplateMetadata.problems(bad, WithARequiredOption.class);
    assertTrue(
        problems.contains("target: a required option missing from metadata.json"),
        problems.toString());
  }

  /** The publisher's own options require nothing (--topic or --kafkaTopic, checked at launch). */
  public interface WithARequiredOption extends PublisherOptions {
    @org.apache.beam.sdk.options.Description("A required option.")
    @org.apache.beam.sdk.options.Validation.Required
    String getTarget();

    void setTarget(String value);
  }
}
