package dev.ingestbench.harness.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.consumer.ConsumerOptions;
import dev.ingestbench.publisher.PublisherOptions;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.junit.jupiter.api.Test;

/** Each flag a run gives its children is one a child, or the Beam runner it runs on, reads. */
class ChildFlagTest {
  /** Where the children's options are declared: their own, and the Flink runner's. */
  private static final List<Class<?>> READERS =
      List.of(ConsumerOptions.class, PublisherOptions.class, FlinkPipelineOptions.class);

  private static boolean read(String name) {
    String property = Character.toUpperCase(name.charAt(0)) + name.substring(1);
    return READERS.stream()
        .flatMap(options -> Arrays.stream(options.getMethods()))
        .map(Method::getName)
        .anyMatch(m -> m.equals("get" + property) || m.equals("is" + property));
  }

  @Test
  void everyFlagIsAnOptionAChildReads() {
    for (ChildFlag flag : ChildFlag.values()) {
      assertTrue(read(flag.flagName()), flag + ": --" + flag.flagName() + " is read by no child");
    }
  }

  @Test
  void aFlagIsRenderedAndReadBack() {
    assertEquals("--runId=r-1", ChildFlag.RUN_ID.is("r-1"));
    assertEquals("FlinkRunner", ChildFlag.RUNNER.valueIn("--runner=FlinkRunner"));
    assertNull(ChildFlag.RUNNER.valueIn("--runnerX=FlinkRunner"));
  }
}
