package dev.ingestbench.scenario;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as scenario files write them ({@code 90s}, {@code 15m}, {@code 1h}) and as reports show
 * them.
 */
public final class Durations {
  private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

  private Durations() {}

  /** {@code 500ms}, {@code 90s}, {@code 15m}, {@code 1h}; empty for anything else. */
  public static Optional<Duration> parse(String text) {
    Matcher m = text == null ? null : DURATION.matcher(text.trim());
    if (m == null || !m.matches()) {
      return Optional.empty();
    }
    long n = Long.parseLong(m.group(1));
    return Optional.of(
        switch (m.group(2)) {
          case "ms" -> Duration.ofMillis(n);
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofMinutes(n);
          default -> Duration.ofHours(n);
        });
  }

  /** {@code 45 s}, {@code 15m}, {@code 1h 2m 3s}: short, exact to the second. */
  public static String show(Duration d) {
    long s = d.getSeconds();
    if (s < 60) {
      return s + "s";
    }
    StringBuilder b = new StringBuilder();
    if (s >= 3600) {
      b.append(s / 3600).append("h ");
    }
    if (s % 3600 >= 60) {
      b.append(s % 3600 / 60).append("m ");
    }
    if (s % 60 > 0) {
      b.append(s % 60).append("s");
    }
    return b.toString().trim().toLowerCase(Locale.ROOT);
  }
}
