package dev.ingestbench.pubsub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.Validation;

/**
 * Checks a Flex Template's {@code metadata.json} against the pipeline's options interface, so the
 * two cannot drift apart: every parameter is an option, every required option is a required
 * parameter, and every parameter's regexes accept the option's default and, for numbers and
 * booleans, reject text. Lives here because both pipelines depend on this module.
 */
public final class FlexTemplateMetadata {
  private FlexTemplateMetadata() {}

  /**
   * Every disagreement found, each naming the parameter and what is wrong; empty when they agree.
   */
  public static List<String> problems(Path metadataJson, Class<? extends PipelineOptions> options)
      throws IOException {
    JsonNode metadata = new ObjectMapper().readTree(metadataJson.toFile());
    List<String> problems = new ArrayList<>();
    Set<String> declared = new HashSet<>();
    for (JsonNode parameter : metadata.path("parameters")) {
      String name = parameter.path("name").asText();
      declared.add(name);
      for (String field : List.of("label", "helpText")) {
        if (parameter.path(field).asText().isBlank()) {
          problems.add(name + ": no " + field);
        }
      }
      Optional<Method> getter = getter(options, name);
      if (getter.isEmpty()) {
        problems.add(name + ": not an option of " + options.getSimpleName());
        continue;
      }
      boolean optional = parameter.path("isOptional").asBoolean(false);
      String defaultValue = defaultValue(getter.get());
      if (!optional && defaultValue != null) {
        problems.add(
            name
                + ": required in metadata.json, yet the option has a default ("
                + defaultValue
                + ")");
      }
      List<Pattern> regexes = new ArrayList<>();
      parameter.path("regexes").forEach(r -> regexes.add(Pattern.compile(r.asText())));
      Class<?> type = getter.get().getReturnType();
      boolean numeric = Number.class.isAssignableFrom(box(type));
      boolean bool = box(type) == Boolean.class;
      if ((numeric || bool) && regexes.isEmpty()) {
        problems.add(
            name + ": a " + type.getSimpleName() + " option needs a regex in metadata.json");
      }
      if (defaultValue != null
          && !regexes.stream().allMatch(r -> r.matcher(defaultValue).matches())) {
        problems.add(
            name
                + ": its regexes reject the option's default '"
                + defaultValue
                + "' (type mismatch?)");
      }
      if ((numeric || bool) && regexes.stream().allMatch(r -> r.matcher("abc").matches())) {
        problems.add(
            name + ": a " + type.getSimpleName() + " option, yet its regexes accept 'abc'");
      }
    }
    for (Method method : options.getMethods()) {
      if (method.isAnnotationPresent(Validation.Required.class) && !hasAnyDefault(method)) {
        String name = propertyName(method);
        if (!declared.contains(name)) {
          problems.add(name + ": a required option missing from metadata.json");
        }
      }
    }
    return problems;
  }

  private static Optional<Method> getter(Class<?> options, String name) {
    String suffix = Character.toUpperCase(name.charAt(0)) + name.substring(1);
    for (Method m : options.getMethods()) {
      if ((m.getName().equals("get" + suffix) || m.getName().equals("is" + suffix))
          && m.getParameterCount() == 0) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  private static String propertyName(Method getter) {
    String n =
        getter.getName().startsWith("is")
            ? getter.getName().substring(2)
            : getter.getName().substring(3);
    return Character.toLowerCase(n.charAt(0)) + n.substring(1);
  }

  private static String defaultValue(Method m) {
    if (m.getAnnotation(Default.String.class) != null)
      return m.getAnnotation(Default.String.class).value();
    if (m.getAnnotation(Default.Integer.class) != null)
      return String.valueOf(m.getAnnotation(Default.Integer.class).value());
    if (m.getAnnotation(Default.Long.class) != null)
      return String.valueOf(m.getAnnotation(Default.Long.class).value());
    if (m.getAnnotation(Default.Double.class) != null)
      return plain(m.getAnnotation(Default.Double.class).value());
    if (m.getAnnotation(Default.Boolean.class) != null)
      return String.valueOf(m.getAnnotation(Default.Boolean.class).value());
    if (m.getAnnotation(Default.Enum.class) != null)
      return m.getAnnotation(Default.Enum.class).value();
    return null;
  }

  /**
   * Beam's own required options (runner, ...) come with defaults and need no template parameter.
   */
  private static boolean hasAnyDefault(Method m) {
    return Arrays.stream(m.getAnnotations())
        .anyMatch(a -> a.annotationType().getEnclosingClass() == Default.class);
  }

  private static String plain(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
  }

  private static Class<?> box(Class<?> type) {
    if (!type.isPrimitive()) return type;
    if (type == int.class) return Integer.class;
    if (type == long.class) return Long.class;
    if (type == double.class) return Double.class;
    if (type == boolean.class) return Boolean.class;
    return type;
  }
}
