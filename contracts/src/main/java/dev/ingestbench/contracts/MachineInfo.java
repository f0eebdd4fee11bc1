package dev.ingestbench.contracts;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the numbers were measured on, recorded with every round. */
public final class MachineInfo {
  private MachineInfo() {}

  public static Map<String, Object> describe() {
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("vcpus", Runtime.getRuntime().availableProcessors());
    m.put("memory_gb", Math.round(os.getTotalMemorySize() / 1e9 * 10) / 10.0);
    m.put(
        "os",
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"));
    m.put("cpu_model", cpuModel());
    m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    m.put("load_average_at_start", os.getSystemLoadAverage());
    return m;
  }

  private static String cpuModel() {
    try {
      return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
          .filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).trim())
          .findFirst()
          .orElse("unknown");
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
