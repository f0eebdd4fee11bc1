package dev.ingestbench.scenario;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** Reads a scenario file and validates it once, so a bad file fails before anything starts. */
public final class ScenarioFile {
  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  private ScenarioFile() {}

  public static Scenario load(Path file) throws ScenarioException, IOException {
    if (!Files.isRegularFile(file)) {
      throw new ScenarioException(
          file,
          List.of(
              "no such file; give the path of a scenario, e.g. scenarios/write-method-ab.yaml"));
    }
    if (Files.readString(file).isBlank()) {
      throw new ScenarioException(file, List.of("the file is empty; start from one in scenarios/"));
    }
    Scenario scenario;
    try {
      scenario = YAML.readValue(file.toFile(), Scenario.class);
    } catch (UnrecognizedPropertyException e) {
      throw new ScenarioException(
          file,
          List.of(
              String.format(
                  "%s: unknown key '%s' (line %d); known keys here: %s",
                  path(e.getPath().subList(0, e.getPath().size() - 1)),
                  e.getPropertyName(),
                  e.getLocation().getLineNr(),
                  e.getKnownPropertyIds().stream()
                      .map(String::valueOf)
                      .sorted()
                      .collect(Collectors.joining(", ")))));
    } catch (ValueInstantiationException e) {
      // A value the setting's own parser refused (write_method: sometimes): in its words.
      throw mappingProblem(
          file,
          e,
          e.getCause() instanceof IllegalArgumentException
              ? e.getCause().getMessage()
              : e.getOriginalMessage());
    } catch (JsonMappingException e) {
      throw mappingProblem(file, e, e.getOriginalMessage().replaceAll(" \\(.*", ""));
    } catch (JsonProcessingException e) {
      throw new ScenarioException(file, List.of("not valid YAML: " + e.getOriginalMessage()));
    }
    if (scenario == null) {
      throw new ScenarioException(file, List.of("the file is empty; start from one in scenarios/"));
    }
    List<String> problems = ScenarioValidator.problems(scenario);
    if (!problems.isEmpty()) {
      throw new ScenarioException(file, problems);
    }
    return scenario;
  }

  /** One problem: the key path, what is wrong, the line. */
  private static ScenarioException mappingProblem(
      Path file, JsonMappingException e, String message) {
    return new ScenarioException(
        file,
        List.of(
            String.format(
                "%s: %s (line %d)",
                path(e.getPath()),
                message,
                e.getLocation() == null ? 0 : e.getLocation().getLineNr())));
  }

  /** The key path of a mapping error in the file's own terms, e.g. {@code jobs.a.workers}. */
  private static String path(List<JsonMappingException.Reference> references) {
    String path =
        references.stream()
            .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
            .collect(Collectors.joining("."))
            .replace(".[", "[");
    return path.isEmpty() ? "(top level)" : path;
  }
}
