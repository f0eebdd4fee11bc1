package dev.ingestbench.harness.staged;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobSinksTest {

  /**
   * A job writing in-process whose consumer announced an emulator that no longer answers and left
   * no files: the error names the consumer's own log (a round's is {@code consumer.log} at the top
   * of --out, not beside the job's directory).
   */
  @Test
  void anInProcessSinkThatLeftNothingNamesItsConsumersLog(@TempDir Path out) throws Exception {
    Path log = out.resolve("consumer.log");
    RunJson.write(
        out.resolve(RunFiles.IN_PROCESS_BIGQUERY),
        Map.of(RunFiles.IN_PROCESS_BIGQUERY_REST, "http://127.0.0.1:1"));
    JobSinks sinks = new JobSinks(Optional.empty(), Map.of("job-1", out), job -> log);
    IOException e = assertThrows(IOException.class, () -> sinks.accounted("job-1"));
    assertTrue(e.getMessage().endsWith("see " + log), e.getMessage());
    assertTrue(e.getMessage().contains("left no " + RunFiles.BIGQUERY_EMULATOR), e.getMessage());
    assertTrue(e.getMessage().startsWith("job job-1 writes in-process"), e.getMessage());
  }
}
