package dev.ingestbench.contracts;

import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Maps a setting's text to one of an enum's values, or fails listing the accepted ones. */
public final class FlagValues {
  private FlagValues() {}

  /** A flag's value: {@code --flag=value is not known; use one of ...} when it is none of them. */
  public static <E extends Enum<E>> E parse(
      String flag, String value, E[] values, Function<E, String> nameOf) {
    E found = find(value, values, nameOf);
    if (found != null) {
      return found;
    }
    throw new IllegalArgumentException(
        flag + "=" + value + " is not known; use one of " + names(values, nameOf));
  }

  /**
   * A scenario file's value, whose key the loader names: {@code 'value' is not known; use one of
   * ...}.
   */
  public static <E extends Enum<E>> E parseYaml(
      String value, E[] values, Function<E, String> nameOf) {
    E found = find(value, values, nameOf);
    if (found != null) {
      return found;
    }
    throw new IllegalArgumentException(
        "'" + value + "' is not known; use one of " + names(values, nameOf));
  }

  /** The value named {@code value} in any case, or null. */
  private static <E> E find(String value, E[] values, Function<E, String> nameOf) {
    for (E candidate : values) {
      if (nameOf.apply(candidate).equalsIgnoreCase(value)) {
        return candidate;
      }
    }
    return null;
  }

  private static <E> String names(E[] values, Function<E, String> nameOf) {
    return Arrays.stream(values).map(nameOf).collect(Collectors.joining(", "));
  }
}
