package dev.ingestbench.contracts;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stepped publish rate, as Beam's IOStressTestBase drives its load: {@code
 * 1x:60s,2x:60s,4x:30s,1x:60s} is the base rate for a minute, twice it for a minute, four times it
 * for 30 s, then the base again. The text form is the flag's ({@code round --live-profile}, {@code
 * publish --rateProfile}).
 *
 * @param steps in order, at least one
 */
public record RateProfile(List<Step> steps) implements Serializable {
  private static final Pattern STEP = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)x:([0-9]+)(ms|s|m|h)");

  /** Steps a profile may have. */
  public static final int MAX_STEPS = 100;

  /**
   * @param multiplier times the base rate, above 0
   * @param seconds how long it lasts, 1 or more
   */
  public record Step(double multiplier, long seconds) implements Serializable {}

  public RateProfile {
    steps = List.copyOf(steps);
  }

  /** Reads {@code text}; a malformed profile throws naming {@code flag}, the step and the fix. */
  public static RateProfile parse(String flag, String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(flag + " is empty; " + example(flag));
    }
    List<Step> steps = new ArrayList<>();
    for (String part : text.split(",")) {
      Matcher m = STEP.matcher(part.strip());
      if (!m.matches()) {
        throw bad(flag, text, part, "is not a step; write MULTIPLIERx:DURATION");
      }
      double multiplier = Double.parseDouble(m.group(1));
      long amount = Long.parseLong(m.group(2));
      Duration d =
          switch (m.group(3)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
          };
      if (!(multiplier > 0) || d.toMillis() % 1000 != 0 || d.getSeconds() < 1) {
        throw bad(
            flag,
            text,
            part,
            "needs a multiplier above 0 and a whole number of seconds, at least 1");
      }
      steps.add(new Step(multiplier, d.getSeconds()));
    }
    if (steps.size() > MAX_STEPS) {
      throw new IllegalArgumentException(
          flag + " has " + steps.size() + " steps; at most " + MAX_STEPS);
    }
    return new RateProfile(steps);
  }

  private static String example(String flag) {
    return "e.g. " + flag + " 1x:60s,2x:60s,4x:30s,1x:60s";
  }

  private static IllegalArgumentException bad(String flag, String text, String part, String why) {
    return new IllegalArgumentException(
        flag + " " + text + ": '" + part.strip() + "' " + why + "; " + example(flag));
  }

  /** Messages the whole profile sends at {@code base} messages/s for 1x. */
  public long messages(double base) {
    long n = 0;
    for (Step s : steps) {
      n += messagesOf(s, base);
    }
    return n;
  }

  /** Messages one step sends at {@code base} for 1x. */
  public static long messagesOf(Step s, double base) {
    return Math.round(base * s.multiplier() * s.seconds());
  }

  /** How long the whole profile lasts. */
  public long seconds() {
    return steps.stream().mapToLong(Step::seconds).sum();
  }

  /** The flag's text form. */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    for (Step s : steps) {
      String m =
          s.multiplier() == Math.rint(s.multiplier())
              ? Long.toString((long) s.multiplier())
              : String.format(Locale.ROOT, "%s", s.multiplier());
      parts.add(m + "x:" + s.seconds() + "s");
    }
    return String.join(",", parts);
  }
}
