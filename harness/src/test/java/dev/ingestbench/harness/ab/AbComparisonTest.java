package dev.ingestbench.harness.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.RunJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ingestbench ab} end to end on a repository of its own, whose launcher is a script that
 * writes a consumer's result (no Maven, no pipeline): the baseline commit is exported and run from
 * its own tree, the working tree from its own, in alternating pairs, and the ratio is the
 * candidate's over the baseline's; a run that fails ends the comparison naming its log.
 */
@Tag("e2e")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AbComparisonTest {
  @TempDir Path repo;

  /** A launcher that writes RATE rows per CPU-second (and a log line saying which tree ran). */
  private static String launcher(String rate, int exit) {
    return """
        #!/usr/bin/env bash
        [ "$1" = --version ] && exit 0
        for a in "$@"; do case "$a" in --localOutputDir=*) out="${a#--localOutputDir=}";; esac; done
        mkdir -p "$out"
        echo "ran $(cd "$(dirname "$0")" && pwd)"
        printf '{"rows_written": %d, "cpu_seconds": 10, "seconds": 5}' $((RATE * 10)) > "$out/consumer_result.json"
        printf 'epoch_second,cpu_seconds,vcpus,jit_cpu_seconds\n1,6,2,3\n2,4,2,2\n' > "$out/consumer_samples.csv"
        exit EXIT
        """
        .replace("RATE", rate)
        .replace("EXIT", Integer.toString(exit));
  }

  @Test
  void theWorkingTreeIsComparedWithItsBaselineInAlternatingPairs() throws Exception {
    commit(launcher("1000", 0)); // the baseline: 1,000 rows per CPU-second
    Files.writeString(repo.resolve("ingestbench"), launcher("1100", 0)); // uncommitted: 10% more
    Path out = repo.resolve("runs/ab");
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    int exit =
        new AbComparison("HEAD", 2, List.of(AbMeasure.CONSUMER), 1_000L, out)
            .run(repo, new PrintStream(said, true, StandardCharsets.UTF_8));
    assertEquals(0, exit);
    String md = Files.readString(out.resolve("ab.md"));
    assertTrue(
        md.contains(
            "| consumer | rows per consumer CPU-second | 1,000, 1,000 | 1,100, 1,100 | +10.0% (95%"
                + " CI +10.0% to +10.0%), higher in 2 of 2 pairs |"),
        md + said);
    // Half of the 10 CPU-seconds the JIT's: twice the rows per CPU-second without it.
    assertTrue(
        md.contains(
            "| consumer | rows per consumer CPU-second without the JIT | 2,000, 2,000 | 2,200,"
                + " 2,200 | +10.0%"),
        md);
    AbFigures figures = RunJson.read(out.resolve("ab.json"), AbFigures.class);
    assertEquals(4, figures.runs().size());
    assertEquals(
        List.of(
            AbFigures.Build.BASELINE,
            AbFigures.Build.CANDIDATE,
            AbFigures.Build.CANDIDATE,
            AbFigures.Build.BASELINE),
        figures.runs().stream().map(AbFigures.Run::build).toList());
    assertTrue(figures.candidate().contains("-dirty (snapshot "), figures.candidate());
    String baselineLog = Files.readString(out.resolve("pair-1/baseline-consumer.log"));
    assertTrue(baselineLog.contains("ran " + repo.resolve("target/ab")), baselineLog);
    String candidateLog = Files.readString(out.resolve("pair-1/candidate-consumer.log"));
    assertTrue(candidateLog.contains("ran " + repo.resolve("target/ab")), candidateLog);
    assertTrue(figures.candidate().contains("(snapshot "), figures.candidate());
  }

  @Test
  void aRunThatFailsEndsTheComparisonNamingItsLog() throws Exception {
    commit(launcher("1000", 0));
    Files.writeString(repo.resolve("ingestbench"), launcher("1100", 3));
    Path out = repo.resolve("runs/ab");
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                new AbComparison("HEAD", 2, List.of(AbMeasure.CONSUMER), 1_000L, out)
                    .run(repo, new PrintStream(new ByteArrayOutputStream(), true)));
    assertTrue(
        e.getMessage()
            .contains("failed (exit 3); see " + out.resolve("pair-1/candidate-consumer.log")),
        e.getMessage());
  }

  @Test
  void aBaselineThatIsNoCommitIsRefusedWithTheFix() throws Exception {
    commit(launcher("1000", 0));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new AbComparison(
                        "no-such-branch", 2, List.of(AbMeasure.CONSUMER), null, repo.resolve("o"))
                    .run(repo, new PrintStream(new ByteArrayOutputStream(), true)));
    assertTrue(
        e.getMessage().startsWith("--baseline no-such-branch is not a commit of"), e.getMessage());
  }

  private void commit(String launcher) throws Exception {
    Path script = repo.resolve("ingestbench");
    Files.writeString(script, launcher);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(repo.resolve(".gitignore"), "target/\nruns/\n");
    git("init", "-q");
    git("add", "-A");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "baseline");
  }

  private void git(String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>(List.of("git", "-C", repo.toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).inheritIO().start();
    assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, String.join(" ", command));
  }
}
