package dev.ingestbench.consumer.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * The flags a local run gets unless the user gives them: embedded Flink, tuned as measured.
 *
 * <ul>
 *   <li>{@code --runner=FlinkRunner --flinkMaster=[local]}: ~11x the DirectRunner's rows per
 *       CPU-second on the synthetic source, and the only one of the two that finishes a default
 *       round in time (docs/local-mode.md).
 *   <li>{@code --checkpointingInterval=1000}: Pub/Sub messages are acked only when a checkpoint
 *       completes, and exactly-once needs checkpoints; long intervals stall the last readers.
 *   <li>{@code --stateBackend=filesystem}: Flink's default in-memory checkpoint storage (5 MB)
 *       overflows with Beam's de-duplication state, and the restart loop then duplicates rows.
 *   <li>{@code --fasterCopy=true}: skips a defensive copy per element; measured 48.5k against 29.1k
 *       rows per CPU-second without it (1M synthetic rows, docs/local-mode.md).
 *   <li>{@code --numberOfExecutionRetries=2}: Flink otherwise restarts a failing job forever, so a
 *       local run that cannot succeed (e.g. every Pull refused) would show no error, only no rows.
 *   <li>{@code --maxBundleSize=10000} with {@code --source=synthetic}: that input is bounded, so
 *       exactly-once writes each bundle to its own PENDING stream (create, connect, append,
 *       finalize, commit); Flink's 1,000-element bundles made 1,000 streams per 1M rows and took
 *       173 s, 10,000-element bundles 47 s (docs/results.md).
 *   <li>{@code --attachedMode=false} (Flink) / {@code --blockOnRun=false} (Direct): {@code run()}
 *       returns, so the local driver can watch progress and stop the job when everything arrived.
 *   <li>{@code --flinkConfDir} of its own ({@link LocalFlinkConf}): the embedded Flink's REST
 *       endpoint and blob server on loopback (Flink's default is the wildcard address), and {@code
 *       execution.savepoint.path} when {@code --savepointPath} is given: Beam applies that flag
 *       only to a remote Flink ({@link LocalSavepointRestore}). A {@code --flinkConfDir} of the
 *       user's is used as it is.
 * </ul>
 */
public final class LocalRunnerDefaults {
  /** Checkpoints of a local run go under the temporary directory, one directory per run. */
  private static final String CHECKPOINTS_PREFIX =
      Path.of(System.getProperty("java.io.tmpdir"), "ingestbench-flink-checkpoints-")
          .toUri()
          .toString();

  private LocalRunnerDefaults() {}

  /**
   * The flags of a bounded pipeline that runs for minutes on this machine (the paced publisher):
   * embedded Flink, its servers on loopback as a consumer's. Not the DirectRunner: its executor
   * runs its driver again and again without a pause while any bundle is in progress, so a publisher
   * that waits for each message's send time keeps a whole core busy (12,000 messages at 400 msg/s:
   * 40 CPU-seconds on the DirectRunner, 16 on embedded Flink).
   */
  public static List<String> boundedEmbedded() {
    return List.of(
        "--runner=FlinkRunner",
        "--flinkMaster=[local]",
        "--fasterCopy=true",
        "--flinkConfDir=" + BoundedConf.DIR);
  }

  /**
   * One configuration directory for every bounded pipeline this JVM starts, written on first use.
   * The embedded Flink of a pipeline with a configuration directory leaves its RPC jar (22 MB) and
   * working directory in its io.tmp.dirs as it exits (each under a name of its own): they are kept
   * in this directory, removed when this JVM exits, or by the next consumer's sweep of a dead
   * process's directories.
   */
  private static final class BoundedConf {
    static final Path DIR =
        LocalFlinkConf.writeWithOwnTmp(
            Path.of(URI.create(CHECKPOINTS_PREFIX + ProcessHandle.current().pid() + "-conf-")));

    static {
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(DIR), "delete " + DIR));
    }
  }

  public static String[] apply(String[] args) {
    List<String> out = new ArrayList<>(Arrays.asList(args));
    String runner = value(args, "runner");
    if (runner == null) {
      runner = "FlinkRunner";
      out.add("--runner=FlinkRunner");
    }
    if (runner.endsWith("DataflowRunner")) {
      return args;
    }
    addIfAbsent(out, args, "streaming", "true");
    if (runner.endsWith("FlinkRunner")) {
      String master = value(args, "flinkMaster");
      boolean embedded = master == null || master.equals("[local]") || master.equals("[auto]");
      if (embedded) {
        addIfAbsent(out, args, "flinkMaster", "[local]");
      }
      addIfAbsent(out, args, "checkpointingInterval", "1000");
      addIfAbsent(out, args, "fasterCopy", "true");
      addIfAbsent(out, args, "attachedMode", "false");
      addIfAbsent(out, args, "numberOfExecutionRetries", "2");
      if ("synthetic".equals(value(args, "source"))) {
        addIfAbsent(out, args, "maxBundleSize", "10000");
      }
      if (value(args, "stateBackend") == null) {
        out.add("--stateBackend=filesystem");
        // The pid in the name lets a later run remove what a killed one (SIGKILL) left. A cluster's
        // TaskManagers on this machine write there too; one on other machines needs a
        // --stateBackendStoragePath they all reach.
        out.add(
            "--stateBackendStoragePath="
                + CHECKPOINTS_PREFIX
                + ProcessHandle.current().pid()
                + "-"
                + UUID.randomUUID());
      }
      if (embedded) {
        embeddedConfiguration(args, out);
      } else if (value(args, "filesToStage") == null) {
        // A cluster has Flink and nothing else: the job brings Beam, the pipeline and their
        // libraries, as its jars.
        out.add("--filesToStage=" + String.join(",", JobJars.toStage()));
      }
    } else if (runner.endsWith("DirectRunner")) {
      addIfAbsent(out, args, "blockOnRun", "false");
    }
    return out.toArray(new String[0]);
  }

  /**
   * The embedded Flink's own configuration directory (servers on loopback; the checkpoint to
   * restore from), unless the user gave one.
   */
  private static void embeddedConfiguration(String[] args, List<String> out) {
    String savepoint = value(args, "savepointPath");
    if (value(args, "flinkConfDir") == null) {
      List<String> conf = new ArrayList<>();
      if (savepoint != null) {
        boolean allowNonRestored =
            Arrays.asList(args).contains("--allowNonRestoredState")
                || "true".equalsIgnoreCase(value(args, "allowNonRestoredState"));
        conf.addAll(LocalSavepointRestore.lines(savepoint, allowNonRestored));
      }
      Path prefix =
          Path.of(URI.create(CHECKPOINTS_PREFIX + ProcessHandle.current().pid() + "-conf-"));
      out.add("--flinkConfDir=" + LocalFlinkConf.write(conf, prefix));
    } else if (savepoint != null) {
      throw new IllegalArgumentException(
          "--savepointPath and --flinkConfDir cannot both be given to a local"
              + " Flink: Beam ignores --savepointPath there, so ingestbench restores it through a"
              + " Flink configuration of its own; put 'execution.savepoint.path: "
              + savepoint
              + "' in your configuration directory's config.yaml instead of --savepointPath");
    }
  }

  /**
   * Deletes the checkpoint directory these defaults chose for {@code options}, once the run is
   * over; a directory the user chose is left alone. Flink creates it when the job starts, so
   * parsing flags (as a round does to validate them) leaves nothing behind.
   */
  public static void deleteCheckpoints(PipelineOptions options) {
    String path = options.as(FlinkPipelineOptions.class).getStateBackendStoragePath();
    if (path == null || !path.startsWith(CHECKPOINTS_PREFIX)) {
      return;
    }
    Path dir = Path.of(URI.create(path));
    if (Files.exists(dir)) {
      deleteTree(dir);
    }
  }

  /**
   * Deletes checkpoint directories of local runs whose process no longer exists: a consumer killed
   * with SIGKILL (or a machine that lost power) cannot delete its own.
   */
  public static void deleteOrphanedCheckpoints() {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    String prefix = Path.of(URI.create(CHECKPOINTS_PREFIX)).getFileName().toString();
    try (Stream<Path> dirs = Files.list(tmp)) {
      for (Path dir : dirs.filter(d -> d.getFileName().toString().startsWith(prefix)).toList()) {
        String rest = dir.getFileName().toString().substring(prefix.length());
        int dash = rest.indexOf('-');
        if (dash > 0
            && rest.substring(0, dash).chars().allMatch(Character::isDigit)
            && ProcessHandle.of(Long.parseLong(rest.substring(0, dash))).isEmpty()) {
          deleteTree(dir);
        }
      }
    } catch (IOException | RuntimeException e) {
      // Best effort: it is the temporary directory.
    }
  }

  /**
   * Best effort: it is a temporary directory. Flink may still be removing a subsumed checkpoint
   * while the walk lists it (the walk then throws UncheckedIOException: a run failed at its very
   * end with NoSuchFileException on {@code chk-6}), so a vanished entry is skipped and the walk
   * retried.
   */
  private static void deleteTree(Path dir) {
    for (int attempt = 0; attempt < 3 && Files.exists(dir); attempt++) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException | UncheckedIOException e) {
        // an entry vanished under the walk: walk again
      }
    }
  }

  private static void addIfAbsent(List<String> out, String[] args, String flag, String value) {
    if (value(args, flag) == null) {
      out.add("--" + flag + "=" + value);
    }
  }

  /** The value of {@code --flag=value} in args, or null. */
  static String value(String[] args, String flag) {
    String prefix = "--" + flag + "=";
    for (String arg : args) {
      if (arg.startsWith(prefix)) {
        return arg.substring(prefix.length());
      }
    }
    return null;
  }
}
