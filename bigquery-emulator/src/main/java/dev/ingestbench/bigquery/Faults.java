package dev.ingestbench.bigquery;

import io.grpc.Status;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Failures the server injects on purpose, to show what each write method does when BigQuery
 * misbehaves. Parsed from {@code --fault} values:
 *
 * <ul>
 *   <li>{@code unavailable=F} / {@code internal=F}: answer a fraction F of appends with that error
 *       (nothing is appended; the writer must retry);
 *   <li>{@code drop=F}: on a fraction F of appends, write the rows and then end the AppendRows
 *       stream (UNAVAILABLE) without answering, as a connection that breaks after the service
 *       committed does: the writer cannot know its rows landed;
 *   <li>{@code drain-at=S}: S seconds after the first append, close every open connection at once
 *       (UNAVAILABLE, "connection is draining"), as the real service does when a server drains;
 *   <li>{@code drain-after=N}: the same drain once the N-th append has been answered. Unlike a time,
 *       a count lands while the writers are still writing (when N is below their number of
 *       appends), however fast or slow the machine.
 * </ul>
 *
 * <p>Fractions are exact and evenly spaced, not random (with F = 0.25 every fourth append), so a
 * round with faults is as reproducible as one without.
 */
record Faults(
    double failFraction,
    Status.Code failCode,
    double dropFraction,
    double drainAtSeconds,
    long drainAfterAppends,
    AtomicLong failChecks,
    AtomicLong dropChecks) {

  Faults(double failFraction, Status.Code failCode, double dropFraction, double drainAtSeconds, long drainAfterAppends) {
    this(failFraction, failCode, dropFraction, drainAtSeconds, drainAfterAppends, new AtomicLong(), new AtomicLong());
  }

  static final Faults NONE = new Faults(0, Status.Code.OK, 0, -1, -1);

  static Faults parse(List<String> specs) {
    Faults faults = NONE;
    for (String spec : specs) {
      int eq = spec.indexOf('=');
      String kind = eq < 0 ? spec : spec.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      double value = eq < 0 ? Double.NaN : number(spec, spec.substring(eq + 1).trim());
      faults =
          switch (kind) {
            case "unavailable", "internal" ->
                new Faults(fraction(spec, value), Status.Code.valueOf(kind.toUpperCase(Locale.ROOT)),
                    faults.dropFraction, faults.drainAtSeconds, faults.drainAfterAppends);
            case "drop" -> new Faults(faults.failFraction, faults.failCode, fraction(spec, value), faults.drainAtSeconds,
                faults.drainAfterAppends);
            case "drain-at" -> {
              if (!(value >= 0)) {
                throw new IllegalArgumentException("--fault " + spec + ": drain-at needs seconds >= 0, e.g. drain-at=30");
              }
              yield new Faults(faults.failFraction, faults.failCode, faults.dropFraction, value, -1);
            }
            case "drain-after" -> {
              if (!(value >= 1 && value == Math.rint(value))) {
                throw new IllegalArgumentException(
                    "--fault " + spec + ": drain-after needs a whole number of appends >= 1, e.g. drain-after=10");
              }
              yield new Faults(faults.failFraction, faults.failCode, faults.dropFraction, -1, (long) value);
            }
            default ->
                throw new IllegalArgumentException(
                    "--fault " + spec + " is not a fault: use unavailable=F, internal=F, drop=F (F a"
                        + " fraction of appends, e.g. 0.01), drain-at=S (seconds after the first append) or"
                        + " drain-after=N (after the N-th append)");
          };
    }
    return faults;
  }

  private static double number(String spec, String text) {
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--fault " + spec + ": '" + text + "' is not a number");
    }
  }

  private static double fraction(String spec, double value) {
    if (!(value >= 0 && value <= 1)) {
      throw new IllegalArgumentException("--fault " + spec + ": the fraction must be between 0 and 1, e.g. 0.01");
    }
    return value;
  }

  boolean failNow() {
    return due(failFraction, failChecks);
  }

  boolean dropNow() {
    return due(dropFraction, dropChecks);
  }

  /** True for the appends where floor(n * fraction) steps up: exactly that fraction, evenly spaced. */
  private static boolean due(double fraction, AtomicLong checks) {
    if (fraction <= 0) {
      return false;
    }
    long n = checks.incrementAndGet();
    return Math.floor(n * fraction) > Math.floor((n - 1) * fraction);
  }
}
