package dev.ingestbench.pubsubload;

import dev.ingestbench.verification.Finding;
import dev.ingestbench.verification.JobCounts;
import dev.ingestbench.verification.VerificationPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A load test judged by the one verification policy of rounds, stages and iterations. The
 * subscriber is the job: what Pub/Sub acknowledged to the publisher was published to it, and what
 * it received is what it accounted for. Pub/Sub delivers at least once, so duplicates pass. Errors
 * of either client fail the test; a subscriber still receiving when the drain ended leaves the
 * unreceived messages behind, not lost, so the test cannot be verified (exit 3) rather than failed
 * (exit 1).
 */
public final class LoadVerification {
  public static final String PUBLISHER = "publisher";
  public static final String SUBSCRIBER = "subscriber";
  private static final VerificationPolicy POLICY = new VerificationPolicy(0);

  private LoadVerification() {}

  /**
   * Every finding of one test, from its summary's {@code totals}.
   *
   * @param stage the sweep point, grid trial or scenario stage; null for a single test
   */
  public static List<Finding> judge(String stage, Map<String, ?> totals) {
    List<Finding> findings = new ArrayList<>();
    long published = number(totals, "published");
    long acked = number(totals, "acked");
    long errors = number(totals, "errors");
    if (errors > 0 || published != acked) {
      findings.add(
          new Finding(
              stage,
              PUBLISHER,
              Finding.Kind.LOAD_TEST,
              String.format(
                  Locale.ROOT,
                  "%,d of %,d published message(s) were not acknowledged by Pub/Sub (%,d publish error(s)); see"
                      + " first_publish_error in summary.json",
                  published - acked,
                  published,
                  errors)));
    }
    long subscriberErrors = number(totals, "subscriber_errors");
    if (subscriberErrors > 0) {
      findings.add(
          new Finding(
              stage,
              SUBSCRIBER,
              Finding.Kind.LOAD_TEST,
              String.format(
                  Locale.ROOT,
                  "%,d pull or acknowledge error(s); see first_subscriber_error in summary.json",
                  subscriberErrors)));
    }
    if (totals.containsKey("missing")) {
      long missing = number(totals, "missing");
      JobCounts counts =
          new JobCounts(
              stage,
              SUBSCRIBER,
              false,
              acked,
              number(totals, "received"),
              number(totals, "distinct_received"),
              number(totals, "duplicates"),
              0,
              acked - missing,
              null,
              null);
      if (missing > 0 && "time-limit".equals(String.valueOf(totals.get("drain")))) {
        counts =
            counts.unverified(
                String.format(
                    Locale.ROOT,
                    "%,d acknowledged message(s) not received yet: the"
                        + " subscriber was still receiving when the drain ended, so they are behind, not shown lost; a --rate"
                        + " below what it receives lets it keep up",
                    missing));
      }
      findings.addAll(POLICY.judge(counts));
    }
    return findings;
  }

  private static long number(Map<String, ?> totals, String key) {
    Object value = totals.get(key);
    return value instanceof Number n ? n.longValue() : 0;
  }
}
