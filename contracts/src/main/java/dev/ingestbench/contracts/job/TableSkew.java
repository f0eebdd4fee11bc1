package dev.ingestbench.contracts.job;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Locale;

/**
 * How rows spread over a job's destination tables: evenly ({@code uniform}), or as Zipf's law with
 * exponent S ({@code zipf:S}): table k gets a share proportional to 1/(k+1)^S, so a few hot tables
 * carry most rows and a long tail carries the rest, as the many-tables questions in this field
 * describe (apache/beam#32508: over a thousand tables "with high skew").
 *
 * @param exponent Zipf's S; 0 for uniform
 */
public record TableSkew(double exponent) implements Serializable {
  /** Every table the same share. */
  public static final TableSkew UNIFORM = new TableSkew(0);

  /**
   * The largest exponent taken: at S = 10 the first table already gets 99.9% of the rows, so a
   * larger one measures nothing new.
   */
  public static final double MAX_EXPONENT = 10;

  private static final String ZIPF = "zipf:";

  public TableSkew {
    if (!(exponent == 0 || (exponent > 0 && exponent <= MAX_EXPONENT))) {
      throw new IllegalArgumentException(
          "a Zipf exponent must be above 0 and at most " + fmt(MAX_EXPONENT) + ", not " + exponent);
    }
  }

  public boolean uniform() {
    return exponent == 0;
  }

  /** {@code uniform} or {@code zipf:S}, as the flags and scenario files spell it. */
  @JsonValue
  public String flag() {
    return uniform() ? "uniform" : ZIPF + fmt(exponent);
  }

  @Override
  public String toString() {
    return flag();
  }

  /** {@code flag=value}, checked: the error names the flag and what to write instead. */
  public static TableSkew parse(String flag, String value) {
    try {
      return of(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(flag + "=" + value + " " + e.getMessage(), e);
    }
  }

  /** A scenario file's value, whose key the loader names. */
  @JsonCreator
  public static TableSkew fromYaml(String value) {
    try {
      return of(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + value + "' " + e.getMessage(), e);
    }
  }

  private static TableSkew of(String value) {
    String text = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    if (text.equals("uniform")) {
      return UNIFORM;
    }
    if (text.startsWith(ZIPF)) {
      double s;
      try {
        s = Double.parseDouble(text.substring(ZIPF.length()));
      } catch (NumberFormatException e) {
        s = Double.NaN;
      }
      if (s > 0 && s <= MAX_EXPONENT) {
        return new TableSkew(s);
      }
    }
    throw new IllegalArgumentException(
        "is not a skew: use uniform, or zipf:S with S above 0 and at most "
            + fmt(MAX_EXPONENT)
            + " (e.g. zipf:1.1: a few hot tables and a long tail)");
  }

  private static String fmt(double value) {
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }
}
