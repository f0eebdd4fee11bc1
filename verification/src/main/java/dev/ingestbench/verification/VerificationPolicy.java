package dev.ingestbench.verification;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one rule by which a round, a scenario stage and an iteration pass: per job, nothing lost, no
 * duplicates under exactly-once, no row whose content is wrong or in another table than its
 * event's, at most {@code maxDeadLetters} dead letters. A job's figures are judged on their own, so
 * one job's loss is never hidden by another's surplus.
 *
 * @param maxDeadLetters dead letters a job may write before it fails ({@code --max-dead-letters}, a
 *     scenario's {@code limits.max_dead_letters}); 0 by default
 */
public record VerificationPolicy(long maxDeadLetters) {

  public VerificationPolicy {
    if (maxDeadLetters < 0) {
      throw new IllegalArgumentException(
          "the dead-letter limit must be 0 or more, not " + maxDeadLetters);
    }
  }

  /** Every reason {@code counts} fails; empty when the job passed. */
  public List<Finding> judge(JobCounts c) {
    List<Finding> findings = new ArrayList<>();
    long lost = c.lost();
    if (c.unverified() != null) {
      findings.add(new Finding(c.stage(), c.job(), Finding.Kind.UNVERIFIED, c.unverified()));
    } else if (lost > 0) {
      findings.add(
          new Finding(
              c.stage(),
              c.job(),
              Finding.Kind.LOST,
              fmt(
                  "lost %,d of %,d published message(s): %,d accounted for (written or dead-lettered)%s",
                  lost,
                  c.published(),
                  c.accountedFor(),
                  c.left() == null ? "" : fmt(", %,d left in its source", c.left()))));
    } else if (lost < 0) {
      findings.add(
          new Finding(
              c.stage(),
              c.job(),
              Finding.Kind.UNVERIFIED,
              fmt(
                  "a miscount: %,d accounted for%s is more than the %,d published",
                  c.accountedFor(),
                  c.left() == null ? "" : fmt(" and %,d left", c.left()),
                  c.published())));
    }
    if (c.exactlyOnce() && c.duplicates() > 0) {
      findings.add(
          new Finding(
              c.stage(),
              c.job(),
              Finding.Kind.DUPLICATES,
              fmt("exactly-once wrote %,d duplicate row(s)", c.duplicates())));
    }
    if (c.mismatched() > 0) {
      findings.add(
          new Finding(
              c.stage(),
              c.job(),
              Finding.Kind.MISMATCHED,
              fmt(
                  "%,d row(s) do not hold what their event must produce, e.g. %s",
                  c.mismatched(), c.firstMismatch())));
    }
    if (c.misrouted() > 0) {
      findings.add(
          new Finding(
              c.stage(),
              c.job(),
              Finding.Kind.MISROUTED,
              fmt(
                  "%,d row(s) are in another table than their event goes to, e.g. %s",
                  c.misrouted(), c.firstMisroute())));
    }
    if (c.deadLettered() > maxDeadLetters) {
      findings.add(
          new Finding(
              c.stage(),
              c.job(),
              Finding.Kind.DEAD_LETTERS,
              fmt(
                  "%,d message(s) dead-lettered, above the limit of %,d (--max-dead-letters, limits.max_dead_letters)",
                  c.deadLettered(), maxDeadLetters)));
    }
    return findings;
  }

  private static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
