package dev.ingestbench.verification;

import dev.ingestbench.contracts.ExitCodes;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything a run's verification found, in the order it was found, and the exit code that follows:
 * 1 when any job of any stage failed verification (or a load-test stage or a stage's purpose
 * failed), else 3 when something could not be verified, else 0. A run that lost data never exits 0.
 */
public final class Verdict {
  private final VerificationPolicy policy;
  private final List<Finding> findings = new ArrayList<>();
  private int judged;

  public Verdict(VerificationPolicy policy) {
    this.policy = policy;
  }

  /** Judges one job's figures; returns what it found of them (empty: passed). */
  public synchronized List<Finding> judge(JobCounts counts) {
    judged++;
    List<Finding> found = policy.judge(counts);
    findings.addAll(found);
    return found;
  }

  /** Adds a finding that is not about one job's counts (a load test, a stage's purpose). */
  public synchronized void add(Finding finding) {
    findings.add(finding);
  }

  public synchronized List<Finding> findings() {
    return List.copyOf(findings);
  }

  /** How many jobs' figures were judged. */
  public synchronized int judged() {
    return judged;
  }

  public synchronized boolean passed() {
    return findings.isEmpty();
  }

  /** The exit code of the whole run. */
  public synchronized int exitCode() {
    if (findings.stream().anyMatch(f -> f.kind() != Finding.Kind.UNVERIFIED)) {
      return ExitCodes.INCOMPLETE;
    }
    return findings.isEmpty() ? ExitCodes.OK : ExitCodes.FAILED;
  }

  /** The failures first (what exit 1 is for), then what could not be verified. */
  public synchronized List<Finding> failuresFirst() {
    List<Finding> ordered = new ArrayList<>();
    findings.stream().filter(f -> f.kind() != Finding.Kind.UNVERIFIED).forEach(ordered::add);
    findings.stream().filter(f -> f.kind() == Finding.Kind.UNVERIFIED).forEach(ordered::add);
    return ordered;
  }
}
