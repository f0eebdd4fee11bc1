package dev.ingestbench.analysis.phases;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A phase set by hand, {@code NAME=HH:MM..HH:MM} in UTC, both minutes included (as the reference
 * rounds label minutes). The date is the timeline's first day; an end before the start crosses
 * midnight.
 */
public record PhaseSpec(String name, LocalTime first, LocalTime last) {
  private static final Pattern SPEC =
      Pattern.compile("([^=]+)=(\\d{1,2}:\\d{2})\\.\\.(\\d{1,2}:\\d{2})");

  public static PhaseSpec parse(String text) {
    Matcher m = SPEC.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "--phase "
              + text
              + " is not NAME=HH:MM..HH:MM (UTC, both minutes included), e.g. A1=10:56..11:01");
    }
    try {
      return new PhaseSpec(
          m.group(1).trim(), LocalTime.parse(pad(m.group(2))), LocalTime.parse(pad(m.group(3))));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "--phase " + text + ": " + e.getParsedString() + " is not a time of day");
    }
  }

  private static String pad(String hhmm) {
    return hhmm.length() == 4 ? "0" + hhmm : hhmm;
  }

  /** [start, end) on {@code day}: end is the minute after the last one. */
  public Instant start(LocalDate day) {
    return day.atTime(first).toInstant(ZoneOffset.UTC);
  }

  public Instant end(LocalDate day) {
    LocalDate endDay = last.isBefore(first) ? day.plusDays(1) : day;
    return endDay.atTime(last).plusMinutes(1).toInstant(ZoneOffset.UTC);
  }
}
