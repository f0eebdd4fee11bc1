package dev.ingestbench.analysis.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvRowsTest {
  @TempDir Path dir;

  /**
   * A segment stopped by a signal as it wrote its CPU files: they read as absent, not a failure.
   */
  @Test
  void anEmptyFileHasNoRowsAsAMissingOneHasNone() throws IOException {
    Path processes = Files.createFile(dir.resolve("processes_cpu.csv"));
    Path machine = Files.createFile(dir.resolve("machine_cpu.csv"));

    assertTrue(ProcessCpuCsv.read(processes).isEmpty());
    assertTrue(MachineCpuCsv.read(machine).isEmpty());
    assertTrue(ProcessCpuCsv.read(dir.resolve("absent.csv")).isEmpty());
  }

  @Test
  void aFileWithRowsIsReadAndOneThatIsNotItsColumnsIsRefused() throws IOException {
    Path processes = dir.resolve("processes_cpu.csv");
    Files.writeString(processes, "epoch_second,process,cpu_seconds\n100,consumer,1.5\n");
    assertEquals(1.5, ProcessCpuCsv.read(processes).get(0).cpuSeconds());

    Files.writeString(processes, "epoch_second,process,cpu_seconds\n100,consumer,lots\n");
    IOException e = assertThrows(IOException.class, () -> ProcessCpuCsv.read(processes));
    assertTrue(e.getMessage().contains("processes_cpu.csv"), e.getMessage());
  }
}
