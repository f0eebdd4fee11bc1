package dev.ingestbench.harness.ab;

import dev.ingestbench.harness.spec.OutDirectory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The baseline of an A/B comparison: a commit exported apart from the working tree (under {@code
 * target/ab/}, never in git) and built there by its own launcher, once; a later comparison with the
 * same commit reuses it.
 */
final class BaselineBuild {
  /** The longest an export or a build may take. */
  private static final java.time.Duration BUILD_LIMIT = java.time.Duration.ofMinutes(60);

  private BaselineBuild() {}

  /** The repository holding {@code dir}: where {@code ingestbench} and {@code .git} are. */
  static Path repository(Path dir) throws IOException, InterruptedException {
    return Path.of(git(dir, null, "rev-parse", "--show-toplevel"));
  }

  /**
   * The working tree as it is now, as a git tree id: every file {@code git add -A} would stage
   * (changes and untracked files, ignored ones left out), staged into an index of its own, so the
   * repository's own index is untouched.
   */
  static String snapshot(Path repo) throws IOException, InterruptedException {
    Path index = Files.createTempDirectory("ingestbench-ab-index").resolve("index");
    try {
      git(repo, index, "add", "-A");
      return git(repo, index, "write-tree");
    } finally {
      Files.deleteIfExists(index);
      Files.deleteIfExists(index.getParent());
    }
  }

  /** The working tree's commit, {@code -dirty} when it has changes beside it. */
  static String describe(Path repo) throws IOException, InterruptedException {
    return git(repo, null, "describe", "--always", "--dirty");
  }

  /** The full commit id of {@code rev}, or an error naming it and the fix. */
  static String commit(Path repo, String rev) throws IOException, InterruptedException {
    try {
      return git(repo, null, "rev-parse", "--verify", "--quiet", rev + "^{commit}");
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "--baseline "
              + rev
              + " is not a commit of "
              + repo
              + "; give a commit id, a tag or a branch (git log --oneline lists them)");
    }
  }

  /**
   * Exports {@code commit} (a commit, or a snapshot's tree) into {@code target/ab/ID} unless it is
   * there, and builds it with its own launcher (its build's output in {@code build.log} there);
   * returns its directory.
   */
  static Path prepare(Path repo, String commit, Consumer<String> say)
      throws IOException, InterruptedException {
    Path dir = repo.resolve("target").resolve("ab").resolve(commit.substring(0, 12));
    if (!Files.exists(dir.resolve("ingestbench"))) {
      say.accept("Exporting " + commit.substring(0, 12) + " into " + dir);
      Path partial = dir.resolveSibling(dir.getFileName() + ".partial");
      OutDirectory.deleteTree(partial);
      Files.createDirectories(partial);
      run(
          repo,
          List.of(
              "bash",
              "-c",
              "set -o pipefail; git archive --format=tar \"$1\" | tar -x -C \"$2\"",
              "export",
              commit,
              partial.toString()),
          repo.resolve("target").resolve("ab").resolve("export.log"),
          BUILD_LIMIT);
      Files.move(partial, dir);
    }
    say.accept(
        "Building "
            + commit.substring(0, 12)
            + " in "
            + dir
            + " (once; minutes on a fresh export; its output in build.log there)");
    run(
        dir,
        List.of(dir.resolve("ingestbench").toString(), "--version"),
        dir.resolve("build.log"),
        BUILD_LIMIT);
    return dir;
  }

  /**
   * Runs {@code command} in {@code dir}, its output in {@code log}, for at most {@code limit}; a
   * stop of this process (Ctrl-C) stops it too. A failure names the command and the log's end.
   */
  static void run(Path dir, List<String> command, Path log, java.time.Duration limit)
      throws IOException, InterruptedException {
    Files.createDirectories(log.toAbsolutePath().getParent());
    Process p =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    Thread stop = new Thread(p::destroy, "ab-stop-run");
    Runtime.getRuntime().addShutdownHook(stop);
    try {
      if (!p.waitFor(limit.toMinutes(), TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IOException(
            String.join(" ", command) + " ran for " + limit.toMinutes() + " min; see " + log);
      }
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(stop);
      } catch (IllegalStateException shuttingDown) {
        // the hook is stopping it
      }
    }
    if (p.exitValue() != 0) {
      throw new IOException(
          String.join(" ", command)
              + " failed (exit "
              + p.exitValue()
              + "); see "
              + log
              + ":\n"
              + tail(log));
    }
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
  }

  /**
   * git's output in {@code dir}, staging into {@code index} when given (null: the repository's).
   */
  private static String git(Path dir, Path index, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    if (index != null) {
      pb.environment().put("GIT_INDEX_FILE", index.toString());
    }
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (p.waitFor() != 0 || (out.isEmpty() && index == null)) {
      throw new IOException(String.join(" ", command) + " failed: " + out);
    }
    return out;
  }
}
