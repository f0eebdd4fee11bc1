package dev.ingestbench.consumer.local;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one jar a job stages to a cluster on this machine, read as a TaskManager reads it. */
class JobJarsTest {
  @Test
  void aClassLoaderOfTheClasspathJarAloneLoadsThePipelineAndBeamButNotFlink(@TempDir Path dir)
      throws Exception {
    Path jar = JobJars.writeClasspathJar(dir.resolve("job-classpath.jar"));
    try (JarFile file = new JarFile(jar.toFile())) {
      String classPath =
          file.getManifest().getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
      assertTrue(classPath.contains("beam-sdks-java-core"), classPath);
      // By file name, as JobJars decides: a directory such as flink-cluster/target/classes/ is not
      // Flink's.
      assertTrue(
          Arrays.stream(classPath.split(" "))
              .map(url -> url.substring(url.lastIndexOf('/') + 1))
              .noneMatch(name -> name.startsWith("flink-") && name.endsWith(".jar")),
          "the cluster has Flink's own jars: " + classPath);
    }
    // A class loader of its own over that one jar, as Flink gives each job (parent: the JDK's).
    try (URLClassLoader job =
        new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      assertSame(job, job.loadClass("org.apache.beam.sdk.Pipeline").getClassLoader());
      assertSame(job, job.loadClass(LocalConsumer.class.getName()).getClassLoader(), "classes");
      assertThrows(
          ClassNotFoundException.class,
          () -> job.loadClass("org.apache.flink.api.common.JobID"),
          "Flink comes from the cluster");
    }
    assertTrue(Files.size(jar) < 100_000, "one small jar, not the libraries");
  }
}
