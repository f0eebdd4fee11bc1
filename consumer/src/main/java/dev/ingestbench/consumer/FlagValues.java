package dev.ingestbench.consumer;

import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Maps a flag's text to one of an enum's values, or fails listing the accepted ones. */
public final class FlagValues {
  private FlagValues() {}

  public static <E extends Enum<E>> E parse(
      String flag, String value, E[] values, Function<E, String> nameOf) {
    for (E candidate : values) {
      if (nameOf.apply(candidate).equalsIgnoreCase(value)) {
        return candidate;
      }
    }
    throw new IllegalArgumentException(
        flag
            + "="
            + value
            + " is not known; use one of "
            + Arrays.stream(values).map(nameOf).collect(Collectors.joining(", ")));
  }
}
