package dev.ingestbench.consumer.local;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;

/**
 * The jars a job submitted to a Flink cluster brings: this JVM's classpath (the pipeline, Beam and
 * every library they use) without Flink's own jars, which the cluster has in the one release it
 * runs; a class directory is staged too (Beam packs it into a jar).
 */
public final class JobJars {
  private JobJars() {}

  /** Every library of this JVM's classpath a Flink cluster lacks. */
  static List<String> toStage() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !entry.isBlank())
        .filter(entry -> !isFlinks(Path.of(entry)))
        .toList();
  }

  /**
   * Writes {@code file}: an empty jar whose manifest {@code Class-Path} names every library of
   * {@link #toStage} where it lies on this machine. Staged alone to a cluster whose TaskManagers
   * run on this machine, it gives each job the same jars, in a class loader of its own, without
   * uploading them: the JobManager puts each of ~275 jars into its blob store one at a time, and
   * each waits on TCP acknowledgements (~65 ms a jar on loopback, ~18 s a submission).
   */
  public static Path writeClasspathJar(Path file) throws IOException {
    Manifest manifest = new Manifest();
    Attributes main = manifest.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    // Absolute file URLs (a directory's ends with "/", which is how a class loader tells it from
    // a jar); the manifest wraps the long line itself.
    main.put(
        Attributes.Name.CLASS_PATH,
        toStage().stream()
            .map(entry -> Path.of(entry).toAbsolutePath().toUri().toString())
            .collect(Collectors.joining(" ")));
    try (OutputStream out = Files.newOutputStream(file);
        JarOutputStream jar = new JarOutputStream(out, manifest)) {
      jar.finish();
    }
    return file;
  }

  /** Flink's runtime and its shaded libraries: {@code flink-*.jar}; Beam's runner is the job's. */
  static boolean isFlinks(Path entry) {
    String name = entry.getFileName() == null ? "" : entry.getFileName().toString();
    return name.startsWith("flink-") && name.endsWith(".jar");
  }
}
