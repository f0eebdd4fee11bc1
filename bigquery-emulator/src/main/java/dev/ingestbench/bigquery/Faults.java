package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.FaultCount;
import io.grpc.Status;
import java.util.ArrayList;
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
 *   <li>{@code misroute=F}: on a fraction F of the appends to a table of several destinations, the
 *       store keeps the rows in the next table instead ({@code BASE_k+1}): a correct verifier
 *       reports every row of them whose event does not belong there as misrouted;
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

  /**
   * One fault as given: how often it was considered and how often it fired, so that a run can say
   * whether it tested anything ({@link FaultCount}).
   */
  static final class Injected {
    final String spec;
    final double fraction;
    final String of;
    final AtomicLong checks = new AtomicLong();
    final AtomicLong fired = new AtomicLong();

    Injected(String spec, double fraction, String of) {
      this.spec = spec;
      this.fraction = fraction;
      this.of = of;
    }

    /**
     * True for the calls where floor(n * fraction) steps up: exactly that fraction, evenly spaced.
     */
    boolean due() {
      long n = checks.incrementAndGet();
      boolean due = Math.floor(n * fraction) > Math.floor((n - 1) * fraction);
      if (due) {
        fired.incrementAndGet();
      }
      return due;
    }

    FaultCount count() {
      return new FaultCount(
          spec, Double.isNaN(fraction) ? null : fraction, of, checks.get(), fired.get());
    }
  }

  /** A fraction of one RPC's calls answered with {@code code} and {@code message}. */
  record Failure(Injected injected, Status.Code code, String kind) {
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
  private Injected drop;
  private Injected discard;
  private Injected corrupt;
  private Injected misroute;
  private Injected duplicate;
  private Injected drain;
  private double drainAtSeconds = -1;
  private long drainAfterAppends = -1;

  /** What each fraction is of, as the help, the docs and the report say it. */
  static final String OF_APPENDS = "AppendRows requests";

  static final String OF_STORED = "appends that reached the store";

  static final String OF_CHECKED = "appends of rows whose content is checked";

  static final String OF_NOT_DISCARDED = "stored appends not discarded";

  static final String OF_ROUTED = "appends to a table of several destinations";

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
      String given = spec.trim();
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
      if (faults.counts().stream().anyMatch(c -> kindOf(c.fault()).equals(kind) && colon < 0)
          && !failingAnswer) {
        throw new IllegalArgumentException(
            "--fault " + spec + ": " + kind + " is given twice; give each fault once");
      }
      switch (kind) {
        case "unavailable", "internal", "overloaded" ->
            faults.failures.put(
                rpc,
                new Failure(
                    new Injected(
                        given,
                        fraction(spec, value),
                        rpc == Rpc.APPEND_ROWS ? OF_APPENDS : rpc.method + " calls"),
                    kind.equals("internal") ? Status.Code.INTERNAL : Status.Code.UNAVAILABLE,
                    kind));
        case "drop" -> faults.drop = new Injected(given, fraction(spec, value), OF_STORED);
        case "discard" -> faults.discard = new Injected(given, fraction(spec, value), OF_STORED);
        case "duplicate" ->
            faults.duplicate = new Injected(given, fraction(spec, value), OF_NOT_DISCARDED);
        case "corrupt" -> faults.corrupt = new Injected(given, fraction(spec, value), OF_CHECKED);
        case "misroute" -> faults.misroute = new Injected(given, fraction(spec, value), OF_ROUTED);
        case "drain-at" -> {
          if (!(value >= 0)) {
            throw new IllegalArgumentException(
                "--fault " + spec + ": drain-at needs seconds >= 0, e.g. drain-at=30");
          }
          faults.drainAtSeconds = value;
          faults.drainAfterAppends = -1;
          faults.drain = new Injected(given, Double.NaN, "drains");
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
          faults.drain = new Injected(given, Double.NaN, "drains");
        }
        default ->
            throw new IllegalArgumentException(
                "--fault "
                    + spec
                    + " is not a fault: use unavailable=F, internal=F, overloaded=F, drop=F, discard=F, duplicate=F, corrupt=F, misroute=F (F a"
                    + " fraction of appends, e.g. 0.01), RPC:unavailable=F (RPC one of create-write-stream,"
                    + " get-write-stream, flush-rows, finalize-write-stream, batch-commit-write-streams),"
                    + " drain-at=S (seconds after the first append) or drain-after=N (after the N-th append)");
      }
    }
    return faults;
  }

  /** The kind of a fault as given: {@code discard} of {@code discard=0.1}. */
  private static String kindOf(String given) {
    int eq = given.indexOf('=');
    return (eq < 0 ? given : given.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
  }

  private static double number(String spec, String text) {
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--fault " + spec + ": '" + text + "' is not a number");
    }
  }

  private static double fraction(String spec, double value) {
    if (!(value > 0 && value <= 1)) {
      throw new IllegalArgumentException(
          "--fault "
              + spec
              + ": the fraction must be above 0 and at most 1, e.g. 0.01 (one in a hundred; leave"
              + " the fault out for none)");
    }
    return value;
  }

  /** The failure to answer this call of {@code rpc} with, or null to serve it. */
  Failure failNow(Rpc rpc) {
    Failure f = failures.get(rpc);
    return f != null && f.injected().due() ? f : null;
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
    return drop != null && drop.due();
  }

  /** Whether the store alters a row of this append ({@code corrupt}). */
  boolean corruptNow() {
    return corrupt != null && corrupt.due();
  }

  /** Whether the store keeps this append's rows in the next table ({@code misroute}). */
  boolean misrouteNow() {
    return misroute != null && misroute.due();
  }

  /**
   * How many times the store keeps this append's rows: 1, 0 ({@code discard}) or 2 ({@code
   * duplicate}).
   */
  int copiesNow() {
    if (discard != null && discard.due()) {
      return 0;
    }
    return duplicate != null && duplicate.due() ? 2 : 1;
  }

  double drainAtSeconds() {
    return drainAtSeconds;
  }

  long drainAfterAppends() {
    return drainAfterAppends;
  }

  /** The server drained its connections ({@code drain-at}, {@code drain-after}). */
  void drained() {
    if (drain != null) {
      drain.checks.incrementAndGet();
      drain.fired.incrementAndGet();
    }
  }

  /** Every fault asked for, in the order of kinds, with how often it fired. */
  List<FaultCount> counts() {
    List<FaultCount> counts = new ArrayList<>();
    failures.values().forEach(f -> counts.add(f.injected().count()));
    for (Injected i : new Injected[] {drop, discard, duplicate, corrupt, misroute, drain}) {
      if (i != null) {
        counts.add(i.count());
      }
    }
    return counts;
  }
}
