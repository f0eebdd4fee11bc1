package dev.ingestbench.flink;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code config.yaml} of a local cluster: every server of every process on loopback (Flink's
 * default is the wildcard address), the JobManager's ports chosen free, each TaskManager's memory
 * given component by component so that the JVM options below match it without Flink's scripts.
 *
 * @param taskHeapMb the heap a TaskManager gives its tasks (the pipeline's code, Beam's state)
 */
record ClusterConfig(int rpcPort, int restPort, int blobPort, int slots, int taskHeapMb, Path dir) {

  /** Flink's own framework heap and off-heap, network buffers, task off-heap (gRPC's buffers). */
  static final int FRAMEWORK_HEAP_MB = 128;

  static final int FRAMEWORK_OFF_HEAP_MB = 128;
  static final int NETWORK_MB = 64;
  static final int TASK_OFF_HEAP_MB = 256;

  /** Beam's classes are loaded once per job into each TaskManager, by the job's class loader. */
  static final int METASPACE_MB = 512;

  /** Thread stacks, code cache, GC: outside every limit above, counted in the process size. */
  static final int OVERHEAD_MB = 192;

  static final int JOBMANAGER_HEAP_MB = 512;

  /**
   * The JVM options Flink's {@code java.opts} add on Java 17 (its distribution's config.yaml), so
   * Kryo and Flink's own reflection work as they do on a real cluster.
   */
  static final List<String> JAVA_17_OPENS =
      List.of(
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "--add-opens=java.base/java.net=ALL-UNNAMED",
          "--add-opens=java.base/java.io=ALL-UNNAMED",
          "--add-opens=java.base/java.nio=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens=java.base/java.text=ALL-UNNAMED",
          "--add-opens=java.base/java.time=ALL-UNNAMED",
          "--add-opens=java.base/java.util=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED",
          "--add-exports=java.base/sun.net.util=ALL-UNNAMED");

  String yaml() {
    List<String> lines = new ArrayList<>();
    lines.add(
        "# Written by ingestbench for a local Flink session cluster: every server on loopback.");
    lines.add("jobmanager.rpc.address: 127.0.0.1");
    lines.add("jobmanager.rpc.port: " + rpcPort);
    lines.add("jobmanager.bind-host: 127.0.0.1");
    lines.add("rest.address: 127.0.0.1");
    lines.add("rest.bind-address: 127.0.0.1");
    lines.add("rest.port: " + restPort);
    lines.add("blob.server.port: " + blobPort);
    lines.add("taskmanager.host: 127.0.0.1");
    lines.add("taskmanager.bind-host: 127.0.0.1");
    lines.add("taskmanager.numberOfTaskSlots: " + slots);
    // Flink's scripts derive these from the memory sizes; a TaskManager started without them must
    // be given every one (TaskExecutorResourceUtils).
    lines.add("taskmanager.cpu.cores: " + slots);
    // A job of parallelism P on W TaskManagers takes its slots from all of them, not the first.
    lines.add("cluster.evenly-spread-out-slots: true");
    lines.add("taskmanager.memory.framework.heap.size: " + FRAMEWORK_HEAP_MB + "m");
    lines.add("taskmanager.memory.task.heap.size: " + taskHeapMb + "m");
    lines.add("taskmanager.memory.managed.size: 0m");
    lines.add("taskmanager.memory.framework.off-heap.size: " + FRAMEWORK_OFF_HEAP_MB + "m");
    lines.add("taskmanager.memory.task.off-heap.size: " + TASK_OFF_HEAP_MB + "m");
    lines.add("taskmanager.memory.network.min: " + NETWORK_MB + "m");
    lines.add("taskmanager.memory.network.max: " + NETWORK_MB + "m");
    lines.add("taskmanager.memory.jvm-metaspace.size: " + METASPACE_MB + "m");
    lines.add("taskmanager.memory.jvm-overhead.min: " + OVERHEAD_MB + "m");
    lines.add("taskmanager.memory.jvm-overhead.max: " + OVERHEAD_MB + "m");
    lines.add("io.tmp.dirs: " + dir.resolve("tmp"));
    lines.add("blob.storage.directory: " + dir.resolve("blobs"));
    // Beam's runner keeps a reference to its class loader after a job ends; Flink would warn on
    // every later use of it.
    lines.add("classloader.check-leaked-classloader: false");
    lines.add("");
    return String.join("\n", lines);
  }

  /** A TaskManager's JVM options: the heap and direct memory its configuration describes. */
  List<String> taskManagerJvm() {
    List<String> options = new ArrayList<>();
    int heap = FRAMEWORK_HEAP_MB + taskHeapMb;
    options.add("-Xmx" + heap + "m");
    options.add("-Xms" + heap + "m");
    options.add(
        "-XX:MaxDirectMemorySize=" + (FRAMEWORK_OFF_HEAP_MB + TASK_OFF_HEAP_MB + NETWORK_MB) + "m");
    options.add("-XX:MaxMetaspaceSize=" + METASPACE_MB + "m");
    options.addAll(JAVA_17_OPENS);
    return options;
  }

  List<String> jobManagerJvm() {
    List<String> options = new ArrayList<>();
    options.add("-Xmx" + JOBMANAGER_HEAP_MB + "m");
    options.addAll(JAVA_17_OPENS);
    return options;
  }
}
