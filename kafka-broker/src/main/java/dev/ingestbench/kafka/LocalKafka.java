package dev.ingestbench.kafka;

import dev.ingestbench.contracts.ChildJavaOptions;
import dev.ingestbench.contracts.LoopbackPorts;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * A real single-node Apache Kafka broker (KRaft: broker and controller in one process) in its own
 * JVM, listening on free loopback ports, with its data in a directory of its own that is removed
 * when it stops. It stops when {@link #close} is called, when this JVM shuts down (Ctrl-C
 * included), and on its own when this process dies (it watches its standard input).
 */
public final class LocalKafka implements AutoCloseable {
  private static final String MAIN = "dev.ingestbench.kafka.KafkaBrokerMain";
  private static final String CLASSPATH_RESOURCE = "broker.classpath";
  private static final long READY_SECONDS = 90;
  private static final int TAIL_LINES = 20;

  private final Process process;
  private final Path dataDir;
  private final Path log;
  private final String bootstrapServers;
  private final Deque<String> tail = new ArrayDeque<>();
  private final Thread shutdownHook;
  private volatile boolean closed;
  private volatile boolean stopRequested;

  /**
   * The cluster id its storage was formatted with: what it answers, and another broker does not.
   */
  private final String clusterId;

  /** The broker has stopped and its data is gone (guarded by this). */
  private boolean stopped;

  private LocalKafka(
      Process process, Path dataDir, Path log, String bootstrapServers, String clusterId) {
    this.process = process;
    this.clusterId = clusterId;
    this.dataDir = dataDir;
    this.log = log;
    this.bootstrapServers = bootstrapServers;
    this.shutdownHook = new Thread(this::closeQuietly, "local-kafka-stop");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts a broker with its data in {@code dataDir} (created; must not hold anything else) and its
   * output in {@code log}, and waits until it answers.
   *
   * @param defaultPartitions partitions of topics created without a count
   * @throws IOException naming the cause (with the broker's last lines) if it does not start
   */
  public static LocalKafka start(Path dataDir, Path log, int defaultPartitions, String heap)
      throws IOException, InterruptedException {
    return start(dataDir, log, defaultPartitions, heap, LoopbackPorts::free);
  }

  /**
   * As {@link #start(Path, Path, int, String)}, its ports chosen by {@code ports}: again on others
   * when one was taken before the broker bound it.
   */
  static LocalKafka start(
      Path dataDir, Path log, int defaultPartitions, String heap, LoopbackPorts.Chooser ports)
      throws IOException, InterruptedException {
    return LoopbackPorts.start(
        ports,
        List.of("Address already in use"),
        chosen -> startOnce(dataDir, log, defaultPartitions, heap, chosen));
  }

  private static LocalKafka startOnce(
      Path dataDir, Path log, int defaultPartitions, String heap, LoopbackPorts.Chooser ports)
      throws IOException, InterruptedException {
    Files.createDirectories(dataDir);
    try (Stream<Path> existing = Files.list(dataDir)) {
      if (existing.findAny().isPresent()) {
        throw new IOException(dataDir + " is not empty: a broker's data directory must be its own");
      }
    }
    int port = ports.choose();
    int controllerPort = ports.choose();
    Path logDirs = dataDir.resolve("logs");
    Path properties = dataDir.resolve("server.properties");
    Files.writeString(
        properties, serverProperties(port, controllerPort, logDirs, defaultPartitions));
    List<String> command =
        new ArrayList<>(
            List.of(
                javaBinary(),
                "-Xmx" + heap,
                "-XX:+UseG1GC",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
    // As every other JVM a round starts (e.g. a flight recording of the broker; the tests' client
    // compiler alone).
    command.addAll(ChildJavaOptions.fromEnvironment());
    // Its own cluster id, so that another broker answering on the port is not taken for it.
    String clusterId = Uuid.randomUuid().toString();
    command.addAll(List.of("-cp", brokerClasspath(), MAIN, properties.toString(), clusterId));
    Files.createDirectories(log.toAbsolutePath().getParent());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    LocalKafka kafka = new LocalKafka(process, dataDir, log, "127.0.0.1:" + port, clusterId);
    kafka.copyOutput();
    try {
      kafka.awaitReady();
    } catch (IOException | InterruptedException | RuntimeException e) {
      kafka.close();
      throw e;
    }
    return kafka;
  }

  /** {@code 127.0.0.1:PORT}, for {@code --bootstrapServers}. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public Path log() {
    return log;
  }

  /** Waits until the broker exits (it exits when this JVM does); returns its exit code. */
  public int waitFor() throws InterruptedException {
    return process.waitFor();
  }

  /**
   * True once this side stopped the broker (close, or this JVM shutting down): its exit is
   * expected.
   */
  public boolean stopRequested() {
    return stopRequested;
  }

  /** The Kafka release the broker runs. */
  public static String version() {
    return AppInfoParser.getVersion();
  }

  /** The broker's last output lines, for errors that name why it died. */
  public String lastLines() {
    synchronized (tail) {
      return String.join(System.lineSeparator(), tail);
    }
  }

  /**
   * Creates {@code topic} with {@code partitions} partitions (replication 1), or keeps it if it
   * exists with as many.
   */
  public void createTopic(String topic, int partitions) throws IOException, InterruptedException {
    try (Admin admin = admin()) {
      try {
        admin
            .createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
            .all()
            .get(60, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw new IOException(
              "creating topic " + topic + " failed: " + e.getCause(), e.getCause());
        }
        int existing = existingPartitions(admin, topic);
        if (existing != partitions) {
          throw new IOException(
              "topic " + topic + " exists with " + existing + " partitions, not " + partitions);
        }
      } catch (TimeoutException e) {
        throw new IOException("creating topic " + topic + " took over 60 s; see " + log, e);
      }
    }
  }

  private static int existingPartitions(Admin admin, String topic)
      throws IOException, InterruptedException {
    try {
      return admin
          .describeTopics(List.of(topic))
          .allTopicNames()
          .get(60, TimeUnit.SECONDS)
          .get(topic)
          .partitions()
          .size();
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException("describing topic " + topic + " failed: " + e, e);
    }
  }

  /** Stops the broker (cleanly when it can, within 30 s) and removes its data. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // already shutting down: this is the hook
    }
    closeQuietly();
  }

  /**
   * Once, whoever calls first: on Ctrl-C the shutdown hook and the thread that waited for the
   * broker both stop it, and the second waits for the first (two deleting the data at once raced:
   * one found a file the other had removed).
   */
  private synchronized void closeQuietly() {
    stopRequested = true;
    if (stopped) {
      return;
    }
    stopped = true;
    try {
      process.getOutputStream().close(); // the broker exits when its stdin closes
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (IOException | InterruptedException e) {
      process.destroyForcibly();
    }
    try {
      deleteRecursively(dataDir);
    } catch (UncheckedIOException e) {
      System.err.println(e.getMessage() + ": " + e.getCause());
    }
  }

  private Admin admin() {
    Properties config = new Properties();
    config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
    config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000);
    return Admin.create(config);
  }

  private void awaitReady() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_SECONDS);
    // First the port (quietly), then the cluster: an admin client warns about every refused
    // connection.
    int port = Integer.parseInt(bootstrapServers.substring(bootstrapServers.lastIndexOf(':') + 1));
    while (!accepts(port)) {
      requireAlive();
      if (System.nanoTime() > deadline) {
        throw new IOException(
            "the Kafka broker did not listen within " + READY_SECONDS + " s; see " + log);
      }
      Thread.sleep(100);
    }
    try (Admin admin = admin()) {
      while (true) {
        requireAlive();
        try {
          // Another broker that took the port first answers too, with its own id: then this one
          // fails to bind, and requireAlive says so.
          DescribeClusterResult cluster = admin.describeCluster();
          if (!cluster.nodes().get(2, TimeUnit.SECONDS).isEmpty()
              && clusterId.equals(cluster.clusterId().get(2, TimeUnit.SECONDS))) {
            return;
          }
        } catch (ExecutionException | TimeoutException e) {
          // not answering yet
        }
        if (System.nanoTime() > deadline) {
          throw new IOException(
              "the Kafka broker did not answer within " + READY_SECONDS + " s; see " + log);
        }
        Thread.sleep(200);
      }
    }
  }

  private void requireAlive() throws IOException, InterruptedException {
    if (!process.isAlive()) {
      Thread.sleep(500); // let the output copier catch the last lines
      throw new IOException(
          "the Kafka broker exited (code "
              + process.exitValue()
              + ") while starting;"
              + " its last lines (all in "
              + log
              + "):"
              + System.lineSeparator()
              + lastLines());
    }
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Copies the broker's output to its log file, keeping the last lines for error messages. */
  private void copyOutput() throws IOException {
    Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8);
    Thread copier =
        new Thread(
            () -> {
              try (out;
                  BufferedReader in =
                      new BufferedReader(
                          new InputStreamReader(
                              process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  out.write(line);
                  out.write(System.lineSeparator());
                  out.flush();
                  synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > TAIL_LINES) {
                      tail.removeFirst();
                    }
                  }
                }
              } catch (IOException e) {
                // the broker's output ended
              }
            },
            "kafka-broker-output");
    copier.setDaemon(true);
    copier.start();
  }

  static String serverProperties(
      int port, int controllerPort, Path logDirs, int defaultPartitions) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("process.roles", "broker,controller");
    settings.put("node.id", "1");
    settings.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    settings.put(
        "listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    settings.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
    settings.put("controller.listener.names", "CONTROLLER");
    settings.put("inter.broker.listener.name", "PLAINTEXT");
    settings.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
    settings.put("log.dirs", logDirs.toAbsolutePath().toString());
    settings.put("num.partitions", Integer.toString(defaultPartitions));
    // One node: every internal topic has one replica.
    settings.put("offsets.topic.replication.factor", "1");
    settings.put("offsets.topic.num.partitions", "4");
    settings.put("transaction.state.log.replication.factor", "1");
    settings.put("transaction.state.log.min.isr", "1");
    settings.put("group.initial.rebalance.delay.ms", "0");
    // Topics are created with their partition count before anything is published.
    settings.put("auto.create.topics.enable", "false");
    StringBuilder text = new StringBuilder("# written by ingestbench for one local broker\n");
    settings.forEach(
        (k, v) -> text.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
    return text.toString();
  }

  private static String brokerClasspath() throws IOException {
    try (InputStream in = LocalKafka.class.getResourceAsStream(CLASSPATH_RESOURCE)) {
      if (in == null) {
        throw new IOException(
            "the broker's classpath ("
                + CLASSPATH_RESOURCE
                + ") is missing from the"
                + " kafka-broker jar: rebuild with ./mvnw install -pl kafka-broker");
      }
      String jars = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
      String own =
          Path.of(LocalKafka.class.getProtectionDomain().getCodeSource().getLocation().toURI())
              .toString();
      for (String jar : jars.split(File.pathSeparator)) {
        if (!Files.exists(Path.of(jar))) {
          throw new IOException(
              "the broker's library " + jar + " is missing: run ./mvnw install -pl kafka-broker");
        }
      }
      return own + File.pathSeparator + jars;
    } catch (URISyntaxException e) {
      throw new IOException("cannot locate the kafka-broker classes", e);
    }
  }

  private static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("removing the broker's data " + dir + " failed", e);
    }
  }
}
