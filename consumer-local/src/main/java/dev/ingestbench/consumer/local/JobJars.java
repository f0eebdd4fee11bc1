package dev.ingestbench.consumer.local;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The jars a job submitted to a Flink cluster brings: this JVM's classpath (the pipeline, Beam and
 * every library they use) without Flink's own jars, which the cluster has in the one release it
 * runs; a class directory is staged too (Beam packs it into a jar).
 */
final class JobJars {
  private JobJars() {}

  /** Every library of this JVM's classpath a Flink cluster lacks. */
  static List<String> toStage() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !entry.isBlank())
        .filter(entry -> !isFlinks(Path.of(entry)))
        .toList();
  }

  /** Flink's runtime and its shaded libraries: {@code flink-*.jar}; Beam's runner is the job's. */
  static boolean isFlinks(Path entry) {
    String name = entry.getFileName() == null ? "" : entry.getFileName().toString();
    return name.startsWith("flink-") && name.endsWith(".jar");
  }
}
