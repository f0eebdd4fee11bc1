package dev.ingestbench.bigquery;

import io.grpc.Status;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Failures the server injects on purpose, to show what each write method does when BigQuery
 * misbehaves. Parsed from {@code --fault} values:
 *
 * <ul>
 *   <li>{@code unavailable=F} / {@code internal=F} / {@code overloaded=F}: answer a fraction F of
 *       appends with that error (nothing is appended; the writer must retry). {@code overloaded} is
 *       UNAVAILABLE with the text the service sends when a task sheds load ("Task is overloaded
 *       (memory-protection)", googleapis/java-bigquery#3537);
 *   <li>{@code RPC:KIND=F}: the same for another RPC: {@code create-write-stream}, {@code
 *       get-write-stream}, {@code flush-rows}, {@code finalize-write-stream}, {@code
 *       batch-commit-write-streams} (and {@code append-rows}, the default);
 *   <li>{@code discard=F} / {@code duplicate=F}: the store itself misbehaves, for testing the
 *       verification: on a fraction F of appends, the rows are acknowledged and never stored, or
 *       stored twice. A correct verifier reports exactly those rows as lost or duplicated;
 *   <li>{@code corrupt=F}: on a fraction F of appends, the store alters one column of the first row
 *       (rows of a table whose content is checked): a correct verifier reports it as mismatched;
 *   <li>{@code drop=F}: on a fraction F of appends, write the rows and then end the AppendRows
 *       stream (UNAVAILABLE) without answering, as a connection that breaks after the service
 *       committed does: the writer cannot know its rows landed;
 *   <li>{@code drain-at=S}: S seconds after the first append, close every open connection at once
 *       (UNAVAILABLE, "connection is draining"), as the real service does when a server drains;
 *   <li>{@code drain-after=N}: the same drain once the N-th append has been answered. Unlike a
 *       time, a count lands while the writers are still writing (when N is below their number of
 *       appends), however fast or slow the machine.
 * </ul>
 *
 * <p>Fractions are exact and evenly spaced, not random (with F = 0.25 every fourth call), so a
 * round with faults is as reproducible as one without.
 */
final class Faults {
  /** The Storage Write API's RPCs, by the name {@code --fault} uses. */
  enum Rpc {
    APPEND_ROWS("AppendRows"),
    CREATE_WRITE_STREAM("CreateWriteStream"),
    GET_WRITE_STREAM("GetWriteStream"),
    FLUSH_ROWS("FlushRows"),
    FINALIZE_WRITE_STREAM("FinalizeWriteStream"),
    BATCH_COMMIT_WRITE_STREAMS("BatchCommitWriteStreams");

    final String method;

    Rpc(String method) {
      this.method = method;
    }

    String flag() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static Rpc of(String spec, String text) {
      String wanted = text.trim().toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
      for (Rpc rpc : values()) {
        if (rpc.method.toLowerCase(Locale.ROOT).equals(wanted)) {
          return rpc;
        }
      }
      throw new IllegalArgumentException(
          "--fault "
              + spec
              + ": '"
              + text
              + "' is not an RPC: use append-rows,"
              + " create-write-stream, get-write-stream, flush-rows, finalize-write-stream or batch-commit-write-streams");
    }
  }

  /** A fraction of one RPC's calls answered with {@code code} and {@code message}. */
  record Failure(double fraction, Status.Code code, String kind, AtomicLong checks) {
    String message(Rpc rpc) {
      return kind.equals("overloaded")
          ? "Request '"
              + rpc.method
              + "' throttled: Task is overloaded (memory-protection) (injected fault)"
          : "injected fault: " + code + " for this " + rpc.method + " call";
    }
  }

  static final Faults NONE = new Faults();

  private final Map<Rpc, Failure> failures = new EnumMap<>(Rpc.class);
  private double dropFraction;
  private final AtomicLong dropChecks = new AtomicLong();
  private double discardFraction;
  private final AtomicLong discardChecks = new AtomicLong();
  private double corruptFraction;
  private final AtomicLong corruptChecks = new AtomicLong();
  private double duplicateFraction;
  private final AtomicLong duplicateChecks = new AtomicLong();
  private double drainAtSeconds = -1;
  private long drainAfterAppends = -1;

  /** The faults that answer a call with an error: one of them per RPC. */
  private static final List<String> FAILING_ANSWERS =
      List.of("unavailable", "internal", "overloaded");

  static Faults parse(List<String> specs) {
    Faults faults = new Faults();
    for (String spec : specs) {
      int eq = spec.indexOf('=');
      String name = eq < 0 ? spec : spec.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      double value = eq < 0 ? Double.NaN : number(spec, spec.substring(eq + 1).trim());
      int colon = name.indexOf(':');
      Rpc rpc = colon < 0 ? Rpc.APPEND_ROWS : Rpc.of(spec, name.substring(0, colon));
      String kind = name.substring(colon + 1).trim();
      boolean failingAnswer = FAILING_ANSWERS.contains(kind);
      if (colon >= 0 && !failingAnswer) {
        throw new IllegalArgumentException(
            "--fault "
                + spec
                + ": an RPC's fault is unavailable=F, internal=F or"
                + " overloaded=F, e.g. flush-rows:unavailable=0.1");
      }
      Failure earlier = faults.failures.get(rpc);
      if (earlier != null && failingAnswer) {
        // One failing answer per call: a second one would silently replace the first.
        throw new IllegalArgumentException(
            "--fault "
                + spec
                + ": "
                + rpc.method
                + " already fails with "
                + earlier.kind()
                + "; give one of unavailable, internal and overloaded per RPC (another RPC, or"
                + " drop=F, may fail besides)");
      }
      switch (kind) {
        case "unavailable", "internal", "overloaded" ->
            faults.failures.put(
                rpc,
                new Failure(
                    fraction(spec, value),
                    kind.equals("internal") ? Status.Code.INTERNAL : Status.Code.UNAVAILABLE,
                    kind,
                    new AtomicLong()));
        case "drop" -> faults.dropFraction = fraction(spec, value);
        case "discard" -> faults.discardFraction = fraction(spec, value);
        case "duplicate" -> faults.duplicateFraction = fraction(spec, value);
        case "corrupt" -> faults.corruptFraction = fraction(spec, value);
        case "drain-at" -> {
          if (!(value >= 0)) {
            throw new IllegalArgumentException(
                "--fault " + spec + ": drain-at needs seconds >= 0, e.g. drain-at=30");
          }
          faults.drainAtSeconds = value;
          faults.drainAfterAppends = -1;
        }
        case "drain-after" -> {
          if (!(value >= 1 && value == Math.rint(value))) {
            throw new IllegalArgumentException(
                "--fault "
                    + spec
                    + ": drain-after needs a whole number of appends >= 1, e.g. drain-after=10");
          }
          faults.drainAfterAppends = (long) value;
          faults.drainAtSeconds = -1;
        }
        default ->
            throw new IllegalArgumentException(
                "--fault "
                    + spec
                    + " is not a fault: use unavailable=F, internal=F, overloaded=F, drop=F, discard=F, duplicate=F, corrupt=F (F a"
                    + " fraction of appends, e.g. 0.01), RPC:unavailable=F (RPC one of create-write-stream,"
                    + " get-write-stream, flush-rows, finalize-write-stream, batch-commit-write-streams),"
                    + " drain-at=S (seconds after the first append) or drain-after=N (after the N-th append)");
      }
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
      throw new IllegalArgumentException(
          "--fault " + spec + ": the fraction must be between 0 and 1, e.g. 0.01");
    }
    return value;
  }

  /** The failure to answer this call of {@code rpc} with, or null to serve it. */
  Failure failNow(Rpc rpc) {
    Failure f = failures.get(rpc);
    return f != null && due(f.fraction(), f.checks()) ? f : null;
  }

  /** Whether this append fails (appends only). */
  boolean failNow() {
    return failNow(Rpc.APPEND_ROWS) != null;
  }

  /** The status appends fail with (OK when they do not). */
  Status.Code failCode() {
    Failure f = failures.get(Rpc.APPEND_ROWS);
    return f == null ? Status.Code.OK : f.code();
  }

  boolean dropNow() {
    return due(dropFraction, dropChecks);
  }

  /** Whether the store alters a row of this append ({@code corrupt}). */
  boolean corruptNow() {
    return due(corruptFraction, corruptChecks);
  }

  /**
   * How many times the store keeps this append's rows: 1, 0 ({@code discard}) or 2 ({@code
   * duplicate}).
   */
  int copiesNow() {
    if (due(discardFraction, discardChecks)) {
      return 0;
    }
    return due(duplicateFraction, duplicateChecks) ? 2 : 1;
  }

  double drainAtSeconds() {
    return drainAtSeconds;
  }

  long drainAfterAppends() {
    return drainAfterAppends;
  }

  /**
   * True for the calls where floor(n * fraction) steps up: exactly that fraction, evenly spaced.
   */
  private static boolean due(double fraction, AtomicLong checks) {
    if (fraction <= 0) {
      return false;
    }
    long n = checks.incrementAndGet();
    return Math.floor(n * fraction) > Math.floor((n - 1) * fraction);
  }
}
