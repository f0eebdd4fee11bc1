package dev.ingestbench.consumer.dataflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.consumer.ConsumerPipeline;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * Lists every class the consumer's Flex Template jar is built from (this module's classes and its
 * runtime classpath, which the shade plugin packs; the build writes the classpath to
 * target/flex-template-classpath.txt) and proves that what runs on Dataflow is the pipeline only:
 * no BigQuery or Pub/Sub emulator, no local driver.
 */
class FlexTemplateJarContentsTest {
  /** Packages that must never reach Dataflow's workers. */
  private static final List<String> LOCAL_ONLY =
      List.of(
          "dev/ingestbench/bigquery/", // the BigQuery emulator
          "dev/ingestbench/emulator/", // the Pub/Sub emulator
          "dev/ingestbench/consumer/local/", // the local driver (module consumer-local)
          "dev/ingestbench/kafka/"); // the local Kafka broker

  @Test
  void holdsThePipelineAndItsRunnersAndNoLocalStandIns() throws IOException {
    Set<String> classes = flexTemplateClasses();
    List<String> local = new ArrayList<>();
    for (String c : classes) {
      if (LOCAL_ONLY.stream().anyMatch(c::startsWith)) {
        local.add(c);
      }
    }
    assertEquals(
        List.of(),
        local.subList(0, Math.min(10, local.size())),
        local.size() + " local-only class(es) would ship in the Flex Template jar");
    assertTrue(
        classes.contains("dev/ingestbench/consumer/ConsumerPipeline.class"),
        "the pipeline's main class");
    assertTrue(
        classes.contains("org/apache/beam/runners/dataflow/DataflowRunner.class"),
        "Dataflow's runner");
    assertTrue(
        classes.contains("dev/ingestbench/events/TaxiRideJson.class"), "the event forms it reads");
  }

  /**
   * The root pom leaves OpenCensus' implementation out (its event queue's thread woke every
   * millisecond in every JVM, docs/dependencies.md); its API, which the Google clients call, stays.
   */
  @Test
  void holdsOpenCensusApiButNotItsImplementation() throws IOException {
    Set<String> classes = flexTemplateClasses();
    assertTrue(classes.contains("io/opencensus/trace/Tracing.class"), "OpenCensus' API");
    assertEquals(
        List.of(),
        classes.stream().filter(c -> c.startsWith("io/opencensus/impl")).limit(5).toList(),
        "OpenCensus' implementation");
  }

  @Test
  void thePipelineAloneRefusesALocalRunAndNamesTheModuleThatRunsIt() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ConsumerPipeline.run(
                    new String[] {
                      "--source=synthetic",
                      "--syntheticMessages=10",
                      "--project=p",
                      "--outputTable=d.t"
                    }));
    assertTrue(e.getMessage().startsWith("--sink=local runs the consumer here"), e.getMessage());
    assertTrue(e.getMessage().contains("./mvnw -q -pl consumer-local exec:java"), e.getMessage());
  }

  private static Set<String> flexTemplateClasses() throws IOException {
    Path listing = Path.of("target", "flex-template-classpath.txt");
    assertTrue(
        Files.exists(listing), listing + " is written by the build (mvn test), before the tests");
    List<Path> entries = new ArrayList<>();
    entries.add(Path.of("target", "classes"));
    for (String e : Files.readString(listing).trim().split(File.pathSeparator)) {
      entries.add(Path.of(e));
    }
    Set<String> classes = new TreeSet<>();
    for (Path entry : entries) {
      if (Files.isDirectory(entry)) {
        try (Stream<Path> files = Files.walk(entry)) {
          files
              .filter(f -> f.toString().endsWith(".class"))
              .forEach(
                  f ->
                      classes.add(entry.relativize(f).toString().replace(File.separatorChar, '/')));
        }
      } else {
        try (ZipFile jar = new ZipFile(entry.toFile())) {
          for (ZipEntry z : Collections.list(jar.entries())) {
            if (z.getName().endsWith(".class")) {
              classes.add(z.getName());
            }
          }
        }
      }
    }
    return classes;
  }
}
