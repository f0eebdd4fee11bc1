package dev.ingestbench.harness.process;

import dev.ingestbench.harness.spec.ChildFlag;
import java.io.File;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntConsumer;

/**
 * Class-data sharing for the child JVMs. With {@code INGESTBENCH_CDS_DIR} set, the first child of
 * each main class lists the classes it loads ({@code -XX:DumpLoadedClassList}); once it has exited
 * they are archived ({@code java -Xshare:dump}), and every later child of that main class maps them
 * from the archive ({@code -XX:SharedArchiveFile}) instead of reading, parsing and verifying them
 * from the jars again.
 *
 * <p>Why: a consumer loads ~18,000 classes (Beam, Flink, gRPC, the Google clients) before it reads
 * a message, and the test suite starts more than a hundred JVMs on two cores. Why a static archive
 * and not Java 17's dynamic one ({@code -XX:ArchiveClassesAtExit}): that one refuses to be written
 * from a classpath holding a directory, and a module's tests run from {@code target/classes}. An
 * archive holds the classes of the jars only, so the child's classpath puts the jars first: the JVM
 * maps an archive only when the classpath it was written with begins the child's. Keyed by main
 * class, runner and classpath; a child that cannot use an archive runs as without one.
 */
public final class ClassDataSharing {
  static final String DIRECTORY_VARIABLE = "INGESTBENCH_CDS_DIR";

  /**
   * Exit codes from here on are 128 + a signal: a child stopped or killed from outside (a kill
   * test's SIGKILL) had been running, and lists what running needs.
   */
  private static final int SIGNALLED = 128;

  private final Path directory;

  ClassDataSharing(Path directory) {
    this.directory = directory;
  }

  /** The directory {@code INGESTBENCH_CDS_DIR} names, or empty when it is not set. */
  public static Optional<ClassDataSharing> fromEnvironment() {
    String dir = System.getenv(DIRECTORY_VARIABLE);
    return dir == null || dir.isBlank()
        ? Optional.empty()
        : Optional.of(new ClassDataSharing(Paths.get(dir.trim()).toAbsolutePath()));
  }

  /**
   * What an archive is kept for: the main class, and the Beam runner its flags name, since a
   * publisher on the DirectRunner loads other classes than one on embedded Flink.
   */
  public static String kind(String mainClass, List<String> args) {
    return args.stream()
        .map(ChildFlag.RUNNER::valueIn)
        .filter(runner -> runner != null)
        .map(runner -> mainClass + "-" + runner)
        .findFirst()
        .orElse(mainClass);
  }

  /**
   * How to start a child of {@code kind} ({@link #kind}) on {@code classpath}: its jars first; with
   * the archive when there is one; listing its classes when no other child does; otherwise plain.
   */
  public Launch launch(String kind, String classpath) {
    List<String> jars = new ArrayList<>();
    List<String> others = new ArrayList<>();
    for (String entry : classpath.split(File.pathSeparator)) {
      (entry.endsWith(".jar") && Files.isRegularFile(Paths.get(entry)) ? jars : others).add(entry);
    }
    if (jars.isEmpty()) {
      return new Launch(List.of(), classpath, null);
    }
    String jarsOnly = String.join(File.pathSeparator, jars);
    List<String> ordered = new ArrayList<>(jars);
    ordered.addAll(others);
    String childClasspath = String.join(File.pathSeparator, ordered);
    String key = kind + "-" + Integer.toHexString(fingerprint(childClasspath, jars));
    Path archive = directory.resolve(key + ".jsa");
    Path classList = directory.resolve(key + ".classlist");
    if (Files.isRegularFile(archive)) {
      return new Launch(
          List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"),
          childClasspath,
          null);
    }
    Path listing = directory.resolve(key + ".classlist.writing");
    try {
      Files.createDirectories(directory);
      if (Files.exists(classList)) {
        return new Launch(List.of(), childClasspath, null); // being archived, or failed to be
      }
      Files.createFile(listing);
    } catch (FileAlreadyExistsException anotherChildLists) {
      return new Launch(List.of(), childClasspath, null);
    } catch (IOException e) {
      return new Launch(List.of(), classpath, null);
    }
    IntConsumer archiveOnExit =
        exitCode -> archive(exitCode, listing, classList, archive, jarsOnly);
    return new Launch(List.of("-XX:DumpLoadedClassList=" + listing), childClasspath, archiveOnExit);
  }

  /**
   * The classpath and each jar's size and time: the JVM maps an archive only while its jars are the
   * ones it was made from, so a rebuilt jar gets an archive of its own.
   */
  private static int fingerprint(String classpath, List<String> jars) {
    StringBuilder all = new StringBuilder(classpath);
    for (String jar : jars) {
      File f = new File(jar);
      all.append('|').append(f.length()).append('@').append(f.lastModified());
    }
    return all.toString().hashCode();
  }

  /**
   * Archives the classes a child listed: {@code java -Xshare:dump} on the jars alone, written under
   * a temporary name and renamed when complete (by the shell that runs it, so also when this JVM
   * has exited meanwhile), so no child maps half an archive.
   */
  private void archive(int exitCode, Path listing, Path classList, Path archive, String jarsOnly) {
    try {
      // Killed before it loaded anything, or failed (a bad flag, a port taken: it loaded what
      // failing needs, not what running needs): the next child lists.
      if (Files.size(listing) == 0 || (exitCode != 0 && exitCode < SIGNALLED)) {
        Files.delete(listing);
        return;
      }
      Files.move(listing, classList, StandardCopyOption.ATOMIC_MOVE);
      Path writing = directory.resolve(archive.getFileName() + ".writing");
      String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
      new ProcessBuilder(
              "sh",
              "-c",
              "\"$0\" -Xshare:dump -XX:SharedClassListFile=\"$1\" -XX:SharedArchiveFile=\"$2\""
                  + " -cp \"$3\" && mv -f \"$2\" \"$4\"",
              java,
              classList.toString(),
              writing.toString(),
              jarsOnly,
              archive.toString())
          .redirectErrorStream(true)
          .redirectOutput(directory.resolve(archive.getFileName() + ".log").toFile())
          .start();
    } catch (IOException e) {
      // no archive: later children load their classes from the jars
    }
  }

  /**
   * One child's JVM options and classpath, and what to do with its exit code once it has exited
   * ({@code null}: nothing).
   */
  public record Launch(List<String> options, String classpath, IntConsumer onExit) {}
}
