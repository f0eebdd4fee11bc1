package dev.ingestbench.flink;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ingestbench.contracts.ChildJavaOptions;
import dev.ingestbench.contracts.LoopbackPorts;
import dev.ingestbench.contracts.ProcessCpuColumns;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A standalone Flink session cluster on this machine: one JobManager and W TaskManagers, each in a
 * JVM of its own (what Flink's {@code start-cluster.sh} starts), running the Flink release of
 * Beam's runner artifact from the project's own build, every server on a free loopback port. Jobs
 * reach it as on any Flink cluster: Beam's FlinkRunner with {@code --flinkMaster=}{@link #master}
 * submits them through the REST endpoint with their jars.
 *
 * <p>It stops on {@link #close}, when this JVM shuts down (Ctrl-C included), and on its own when
 * this process dies by SIGKILL (each of its processes watches its standard input).
 */
public final class LocalFlinkCluster implements AutoCloseable {
  private static final String CLASSPATH_RESOURCE = "cluster.classpath";
  private static final long READY_SECONDS = 90;
  private static final String WORK_PREFIX = "ingestbench-flink-cluster-";

  private final Path dir;
  private final Path logDir;
  private final ClusterConfig config;
  private final String classpath;
  private final FlinkProcess jobManager;
  private final List<FlinkProcess> taskManagers = new CopyOnWriteArrayList<>();
  private final Thread shutdownHook;
  private volatile boolean closed;
  private volatile boolean stopping;

  private LocalFlinkCluster(
      Path dir, Path logDir, ClusterConfig config, String classpath, FlinkProcess jobManager) {
    this.dir = dir;
    this.logDir = logDir;
    this.config = config;
    this.classpath = classpath;
    this.jobManager = jobManager;
    this.shutdownHook = new Thread(this::stopAll, "local-flink-cluster-stop");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts the JobManager, then {@code taskManagers} TaskManagers of {@code slots} slots each, and
   * waits until all of them registered.
   *
   * @param dir the cluster's working directory (created; must be empty; removed at close)
   * @param logDir where each process's log goes ({@code jobmanager.log}, {@code taskmanager-1.log},
   *     ...); kept
   * @param taskHeapMb the heap each TaskManager gives its tasks
   * @throws IOException naming the process that failed to start, with the end of its log
   */
  public static LocalFlinkCluster start(
      Path dir, Path logDir, int taskManagers, int slots, int taskHeapMb)
      throws IOException, InterruptedException {
    return start(dir, logDir, taskManagers, slots, taskHeapMb, LoopbackPorts::free);
  }

  /**
   * As {@link #start(Path, Path, int, int, int)}, its ports chosen by {@code ports}: again on
   * others when one was taken before the JobManager bound it (its RPC system says it failed to
   * bind, its REST endpoint that the address is in use).
   */
  static LocalFlinkCluster start(
      Path dir,
      Path logDir,
      int taskManagers,
      int slots,
      int taskHeapMb,
      LoopbackPorts.Chooser ports)
      throws IOException, InterruptedException {
    return LoopbackPorts.start(
        ports,
        List.of("failed to bind", "Address already in use", "BindException"),
        chosen -> startOnce(dir, logDir, taskManagers, slots, taskHeapMb, chosen));
  }

  private static LocalFlinkCluster startOnce(
      Path dir,
      Path logDir,
      int taskManagers,
      int slots,
      int taskHeapMb,
      LoopbackPorts.Chooser ports)
      throws IOException, InterruptedException {
    if (taskManagers < 1 || slots < 1) {
      throw new IllegalArgumentException(
          "a cluster needs 1 or more TaskManagers with 1 or more slots");
    }
    Files.createDirectories(dir);
    try (Stream<Path> existing = Files.list(dir)) {
      if (existing.findAny().isPresent()) {
        throw new IOException(dir + " is not empty: a cluster's working directory must be its own");
      }
    }
    ClusterConfig config =
        new ClusterConfig(ports.choose(), ports.choose(), ports.choose(), slots, taskHeapMb, dir);
    Path confDir = Files.createDirectories(dir.resolve("conf"));
    Files.writeString(confDir.resolve("config.yaml"), config.yaml(), StandardCharsets.UTF_8);
    String classpath = clusterClasspath();
    FlinkProcess jobManager =
        FlinkProcess.start(
            "jobmanager",
            FlinkProcessMain.JOBMANAGER,
            jvm(config.jobManagerJvm(), classpath),
            List.of("--configDir", confDir.toString()),
            logDir.resolve("jobmanager.log"));
    LocalFlinkCluster cluster = new LocalFlinkCluster(dir, logDir, config, classpath, jobManager);
    try {
      cluster.awaitJobManager();
      for (int i = 1; i <= taskManagers; i++) {
        cluster.startTaskManager(i);
      }
      cluster.awaitTaskManagers(taskManagers);
    } catch (IOException | InterruptedException | RuntimeException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /**
   * A new working directory under the temporary directory (blob storage: every job's jars), named
   * after this process; directories of processes that died without removing theirs (by SIGKILL) are
   * removed first.
   */
  public static Path newWorkDirectory() {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    try (Stream<Path> dirs = Files.list(tmp)) {
      for (Path d : dirs.filter(d -> d.getFileName().toString().startsWith(WORK_PREFIX)).toList()) {
        String rest = d.getFileName().toString().substring(WORK_PREFIX.length());
        int dash = rest.indexOf('-');
        if (dash > 0
            && rest.substring(0, dash).chars().allMatch(Character::isDigit)
            && ProcessHandle.of(Long.parseLong(rest.substring(0, dash))).isEmpty()) {
          deleteRecursively(d);
        }
      }
    } catch (IOException | RuntimeException e) {
      // best effort: it is the temporary directory
    }
    return tmp.resolve(WORK_PREFIX + ProcessHandle.current().pid() + "-" + UUID.randomUUID());
  }

  /** {@code 127.0.0.1:PORT}: the REST endpoint, what Beam's {@code --flinkMaster} takes. */
  public String master() {
    return "127.0.0.1:" + config.restPort();
  }

  /** The JobManager and the TaskManagers started so far (a killed one stays listed, not alive). */
  public List<FlinkProcess> processes() {
    List<FlinkProcess> all = new ArrayList<>();
    all.add(jobManager);
    all.addAll(taskManagers);
    return all;
  }

  public List<FlinkProcess> taskManagers() {
    return List.copyOf(taskManagers);
  }

  /** The Flink release this cluster runs (that of Beam's runner artifact). */
  public static String version() {
    try (InputStream in = LocalFlinkCluster.class.getResourceAsStream("flink.version")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("the flink-cluster jar has no flink.version: rebuild it", e);
    }
  }

  /**
   * Kills the running TaskManager {@code index} (1-based) with SIGKILL, as a worker machine fails,
   * and starts a fresh one in its place (as a supervisor or Kubernetes would), so the job that lost
   * its tasks can restart from its last checkpoint on as many slots as before.
   *
   * @return the replacement
   */
  public FlinkProcess killTaskManager(int index) throws IOException, InterruptedException {
    FlinkProcess victim = taskManagers.get(index - 1);
    victim.kill();
    return startTaskManager(taskManagers.size() + 1);
  }

  /**
   * Waits until the JobManager exits: when {@link #close} or this JVM's end stopped it, or when it
   * died on its own ({@link #stopRequested} tells which).
   *
   * @return its exit code
   */
  public int awaitJobManagerExit() throws InterruptedException {
    while (jobManager.isAlive()) {
      Thread.sleep(200);
    }
    return jobManager.exitValue();
  }

  /** True once this side asked the cluster to stop: its processes' exits are expected. */
  public boolean stopRequested() {
    return stopping;
  }

  /** Stops every process (TaskManagers first, cleanly when they can) and removes the directory. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // already shutting down: the hook does it
      return;
    }
    stopAll();
  }

  private void stopAll() {
    stopping = true;
    List<Thread> stopping = new ArrayList<>();
    for (FlinkProcess tm : taskManagers) {
      Thread t = new Thread(tm::stop, tm.name() + "-stop");
      t.start();
      stopping.add(t);
    }
    for (Thread t : stopping) {
      try {
        t.join(TimeUnit.SECONDS.toMillis(45));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    jobManager.stop();
    deleteRecursively(dir);
  }

  private FlinkProcess startTaskManager(int number) throws IOException {
    String name = ProcessCpuColumns.TASKMANAGER + number;
    FlinkProcess tm =
        FlinkProcess.start(
            name,
            FlinkProcessMain.TASKMANAGER,
            jvm(config.taskManagerJvm(), classpath),
            List.of(
                "--configDir",
                dir.resolve("conf").toString(),
                "-D",
                "taskmanager.resource-id=" + name),
            logDir.resolve(name + ".log"));
    taskManagers.add(tm);
    return tm;
  }

  private void awaitJobManager() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_SECONDS);
    while (true) {
      requireAlive(jobManager);
      try {
        FlinkRest.overview(master());
        if (answersWithOurBlobPort()) {
          return;
        }
        // Another cluster's JobManager took the REST port first: this one fails to bind, and
        // requireAlive says so.
      } catch (IOException notYet) {
        if (System.nanoTime() > deadline) {
          throw new IOException(
              "the Flink JobManager did not answer within "
                  + READY_SECONDS
                  + " s; see "
                  + jobManager.log(),
              notYet);
        }
      }
      Thread.sleep(200);
    }
  }

  /** Whether the JobManager answering on the REST port runs this cluster's configuration. */
  private boolean answersWithOurBlobPort() throws IOException, InterruptedException {
    for (JsonNode entry : FlinkRest.get(master(), "/jobmanager/config")) {
      if (entry.path("key").asText().equals("blob.server.port")) {
        return entry.path("value").asText().equals(String.valueOf(config.blobPort()));
      }
    }
    return false;
  }

  private void awaitTaskManagers(int expected) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_SECONDS);
    while (true) {
      for (FlinkProcess p : processes()) {
        requireAlive(p);
      }
      FlinkRest.Overview overview = FlinkRest.overview(master());
      // A TaskManager registers, then reports its slots.
      if (overview.taskManagers() >= expected
          && overview.slotsTotal() >= expected * config.slots()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(
            overview.taskManagers()
                + " of "
                + expected
                + " TaskManagers registered within "
                + READY_SECONDS
                + " s; see their logs in "
                + logDir);
      }
      Thread.sleep(200);
    }
  }

  private static void requireAlive(FlinkProcess p) throws IOException, InterruptedException {
    if (!p.isAlive()) {
      Thread.sleep(500); // let the output copier catch the last lines
      throw new IOException(
          "the Flink "
              + p.name()
              + " exited (code "
              + p.exitValue()
              + ") while the cluster started; its last lines (all in "
              + p.log()
              + "):"
              + System.lineSeparator()
              + p.lastLines());
    }
  }

  private static List<String> jvm(List<String> options, String classpath) {
    List<String> all = new ArrayList<>(options);
    // As every other JVM a round starts (e.g. a flight recording of each TaskManager; the tests'
    // client compiler alone).
    all.addAll(ChildJavaOptions.fromEnvironment());
    all.add("-Dorg.slf4j.simpleLogger.showDateTime=true");
    // Flink's INFO lines are what its logs are for (a job library's simplelogger.properties must
    // not turn them off).
    all.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=info");
    all.add("-cp");
    all.add(classpath);
    return all;
  }

  private static String clusterClasspath() throws IOException {
    try (InputStream in = LocalFlinkCluster.class.getResourceAsStream(CLASSPATH_RESOURCE)) {
      if (in == null) {
        throw new IOException(
            "the cluster's classpath ("
                + CLASSPATH_RESOURCE
                + ") is missing from the flink-cluster jar: rebuild with ./mvnw install -pl"
                + " flink-cluster");
      }
      String jars = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
      for (String jar : jars.split(File.pathSeparator)) {
        if (!Files.exists(Path.of(jar))) {
          throw new IOException(
              "Flink's library " + jar + " is missing: run ./mvnw install -pl flink-cluster");
        }
      }
      String own =
          Path.of(
                  LocalFlinkCluster.class
                      .getProtectionDomain()
                      .getCodeSource()
                      .getLocation()
                      .toURI())
              .toString();
      return own + File.pathSeparator + jars;
    } catch (URISyntaxException e) {
      throw new IOException("cannot locate the flink-cluster classes", e);
    }
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | UncheckedIOException e) {
      System.err.println("could not remove the Flink cluster's directory " + dir + ": " + e);
    }
  }
}
