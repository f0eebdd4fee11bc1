package dev.ingestbench.consumer.local;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs a main class again in a JVM of its own when this one loaded it behind an isolated class
 * loader, as {@code mvn exec:java} does.
 *
 * <p>Embedded Flink builds the class loader of its JobMaster over the system class loader, which
 * under {@code exec:java} holds only Maven itself, so the job fails with ClassNotFoundException for
 * Flink's own classes. A child JVM on the same classpath sees everything from the system class
 * loader.
 */
public final class OwnJvm {
  private OwnJvm() {}

  /** True when the project's classes are not on the system class path. */
  public static boolean isIsolated(Class<?> mainClass) {
    return mainClass.getClassLoader() != ClassLoader.getSystemClassLoader()
        && classPath(mainClass.getClassLoader()).size() > 0;
  }

  /** Runs {@code mainClass} with {@code args} in a child JVM; returns its exit code. */
  public static int run(Class<?> mainClass, String[] args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    String maxHeap = System.getenv().getOrDefault("INGESTBENCH_CONSUMER_HEAP", "2g");
    command.add("-Xmx" + maxHeap);
    command.add("-cp");
    command.add(String.join(File.pathSeparator, classPath(mainClass.getClassLoader())));
    command.add(mainClass.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command).inheritIO().start().waitFor();
  }

  private static Set<String> classPath(ClassLoader loader) {
    Set<String> entries = new LinkedHashSet<>();
    for (ClassLoader l = loader;
        l != null && l != ClassLoader.getSystemClassLoader();
        l = l.getParent()) {
      if (l instanceof URLClassLoader urls) {
        for (URL url : urls.getURLs()) {
          try {
            entries.add(Path.of(url.toURI()).toString());
          } catch (URISyntaxException | IllegalArgumentException e) {
            entries.add(url.getPath());
          }
        }
      }
    }
    return entries;
  }
}
