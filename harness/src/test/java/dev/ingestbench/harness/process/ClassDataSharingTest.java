package dev.ingestbench.harness.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first child of a main class lists its classes, they are archived, and the next child maps
 * them from the archive (the JVM's own class-loading log says so); a child started while the first
 * one lists runs plain; directories never stop the archive, and come after the jars.
 */
@Tag("e2e")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClassDataSharingTest {
  /** The child: loads a class of its own jar besides its main class. */
  public static final class ProbeMain {
    public static void main(String[] args) {
      System.out.println("probe " + new ProbeHelper().hashCode());
    }
  }

  /** A second class of the probe's jar. */
  public static final class ProbeHelper {}

  @Test
  void theSecondChildMapsTheClassesTheFirstListed(@TempDir Path dir) throws Exception {
    Path jar = probeJar(dir);
    Path classes = Files.createDirectories(dir.resolve("classes"));
    Files.writeString(classes.resolve("not-empty.txt"), "a directory the dump must not see");
    String classpath = classes + File.pathSeparator + jar;
    ClassDataSharing sharing = new ClassDataSharing(dir.resolve("cds"));
    String main = ProbeMain.class.getName();

    ClassDataSharing.Launch first = sharing.launch(main, classpath);
    assertEquals(jar + File.pathSeparator + classes, first.classpath(), "jars first");
    assertTrue(
        first.options().get(0).startsWith("-XX:DumpLoadedClassList="), first.options().toString());
    ClassDataSharing.Launch meanwhile = sharing.launch(main, classpath);
    assertEquals(List.of(), meanwhile.options(), "one child lists, the others run plain");

    assertTrue(run(first, main).contains("probe"));
    first.onExit().accept(0);
    Path archive = awaitArchive(dir.resolve("cds"));

    ClassDataSharing.Launch second = sharing.launch(main, classpath);
    assertEquals(List.of("-XX:SharedArchiveFile=" + archive), second.options().subList(0, 1));
    String loaded = run(second, main, "-Xlog:class+load=info");
    assertTrue(
        loaded.contains(ProbeHelper.class.getName() + " source: shared objects file"),
        "the probe's own class comes from the archive:\n" + loaded);
  }

  @Test
  void aPipelineOnAnotherRunnerHasAnArchiveOfItsOwn() {
    assertEquals(
        "Publisher-FlinkRunner",
        ClassDataSharing.kind("Publisher", List.of("--topic=t", "--runner=FlinkRunner")));
    assertEquals("Publisher", ClassDataSharing.kind("Publisher", List.of("--topic=t")));
  }

  /** A child that failed (exit 2: a bad flag) loaded what failing needs: nothing is archived. */
  @Test
  void aChildThatFailedIsNotArchivedAndTheNextOneLists(@TempDir Path dir) throws Exception {
    Path jar = probeJar(dir);
    ClassDataSharing sharing = new ClassDataSharing(dir.resolve("cds"));
    String main = ProbeMain.class.getName();
    ClassDataSharing.Launch failed = sharing.launch(main, jar.toString());
    run(failed, main);
    failed.onExit().accept(2);
    try (var files = Files.list(dir.resolve("cds"))) {
      assertEquals(List.of(), files.toList(), "no class list kept, no archive made");
    }
    ClassDataSharing.Launch next = sharing.launch(main, jar.toString());
    assertTrue(
        next.options().get(0).startsWith("-XX:DumpLoadedClassList="), next.options().toString());
  }

  @Test
  void aClasspathWithoutJarsIsLeftAsItIs(@TempDir Path dir) {
    String classpath = dir.resolve("classes") + File.pathSeparator + dir.resolve("more");
    ClassDataSharing.Launch launch =
        new ClassDataSharing(dir.resolve("cds")).launch("Main", classpath);
    assertEquals(List.of(), launch.options());
    assertEquals(classpath, launch.classpath());
  }

  private static Path awaitArchive(Path cds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      try (var files = Files.list(cds)) {
        List<Path> archives = files.filter(p -> p.toString().endsWith(".jsa")).toList();
        if (!archives.isEmpty()) {
          return archives.get(0);
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no archive was written; see the .jsa.log in " + cds);
  }

  private static String run(ClassDataSharing.Launch launch, String main, String... extra)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(launch.options());
    command.addAll(List.of(extra));
    command.addAll(List.of("-cp", launch.classpath(), main));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), output);
    return output;
  }

  /** A jar holding the probe's classes, copied from this test's own compiled classes. */
  private static Path probeJar(Path dir) throws IOException {
    Path jar = dir.resolve("probe.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (Class<?> c : List.of(ProbeMain.class, ProbeHelper.class)) {
        String entry = c.getName().replace('.', '/') + ".class";
        out.putNextEntry(new JarEntry(entry));
        try (var in = ClassDataSharingTest.class.getClassLoader().getResourceAsStream(entry)) {
          in.transferTo(out);
        }
        out.closeEntry();
      }
    }
    return jar;
  }
}
