package dev.ingestbench.analysis.capacity;

/**
 * The search for the highest rate a system sustains, shared by {@code pubsub-load} ({@link
 * #fromTop}: the first probe is what the publisher alone can send) and {@code round
 * --find-max-rate} ({@link #rampingFrom}: doubling from a low rate up to that top). When a probe is
 * not sustained before any was, the next is {@link #FIRST_STEP_DOWN} of what the system achieved in
 * it, then the rate is halved until one is sustained; then it is bisected between the highest
 * sustained and the lowest not sustained (after the first failure, at what the system achieved in
 * it when that lies well inside the bracket) until they are within {@link #RESOLUTION} of each
 * other.
 */
public final class RateBisection {
  /** The search stops once the bracket is narrower than this share of its top. */
  public static final double RESOLUTION = 0.05;

  /** After the top failed: this share of what the system achieved in it. */
  public static final double FIRST_STEP_DOWN = 0.9;

  /** Until the first failure, each probe asks this many times the last sustained rate. */
  public static final double RAMP = 2;

  private final double top;
  private final boolean ramping;
  private double sustained;
  private double notSustained = Double.NaN;
  private double next;
  private int failures;

  private RateBisection(double first, double top, boolean ramping) {
    this.next = Math.min(first, top);
    this.top = top;
    this.ramping = ramping;
  }

  /** Starts at {@code top}, the highest rate worth asking (the publisher's own). */
  public static RateBisection fromTop(double top) {
    return new RateBisection(top, top, false);
  }

  /**
   * Starts at {@code first} and doubles it while it is sustained, up to {@code top}, so that a
   * failed probe overshoots what the system can do at most twice and leaves a backlog it drains in
   * seconds (a search from the top of a fast publisher would bury a slow consumer).
   */
  public static RateBisection rampingFrom(double first, double top) {
    return new RateBisection(first, top, true);
  }

  /** The rate to probe next. */
  public double next() {
    return next;
  }

  /** The highest rate sustained so far; 0 when none. */
  public double sustained() {
    return sustained;
  }

  /** The lowest rate above {@link #sustained} not sustained; NaN when none. */
  public double notSustained() {
    return notSustained;
  }

  /**
   * What a probe at {@code rate} found.
   *
   * @param achieved what the system did achieve at that rate (the slower side's throughput)
   */
  public void record(double rate, boolean kept, double achieved) {
    if (kept) {
      sustained = Math.max(sustained, rate);
    } else {
      failures++;
      notSustained = Double.isNaN(notSustained) ? rate : Math.min(notSustained, rate);
    }
    if (sustained > 0 && Double.isNaN(notSustained)) {
      next = ramping ? Math.min(top, Math.floor(sustained * RAMP)) : sustained;
    } else if (sustained > 0) {
      double middle = Math.floor((sustained + notSustained) / 2);
      // The first failure says what the system achieved when overloaded: a better guess than the
      // middle when it lies well inside the bracket (next to the sustained rate it would only
      // repeat that probe).
      double guess = Math.floor(achieved);
      double margin = RESOLUTION * notSustained;
      boolean inside = guess > sustained + margin && guess < notSustained - margin;
      next = failures == 1 && !kept && inside ? guess : middle;
    } else if (failures == 1 && achieved > 0 && achieved < rate) {
      next = Math.floor(FIRST_STEP_DOWN * achieved);
    } else {
      next = Math.floor(rate / 2);
    }
  }

  /**
   * A confirming probe at the answer's rate failed: it no longer counts as sustained, and the
   * search goes on below it ({@code highestBelow}: the highest other rate sustained, 0 when none).
   */
  public void unconfirmed(double rate, double highestBelow) {
    notSustained = Double.isNaN(notSustained) ? rate : Math.min(notSustained, rate);
    sustained = highestBelow;
    next = sustained > 0 ? Math.floor((sustained + notSustained) / 2) : Math.floor(rate / 2);
  }

  /**
   * Whether the answer is found: the top was sustained (nothing above it to try), or the bracket is
   * within {@link #RESOLUTION}.
   */
  public boolean converged() {
    return sustained > 0
        && (Double.isNaN(notSustained)
            ? sustained >= top
            : (notSustained - sustained) / notSustained < RESOLUTION);
  }

  /** Whether no rate is worth probing any more (below one message per second). */
  public boolean exhausted() {
    return next < 1;
  }
}
