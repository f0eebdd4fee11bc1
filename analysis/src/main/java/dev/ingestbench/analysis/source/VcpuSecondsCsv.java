package dev.ingestbench.analysis.source;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads CPU per minute for {@code analyze --cpu}: vCPU-seconds used (Dataflow's {@code
 * job/total_vcpu_time} as per-minute deltas; value column {@code vcpu_seconds}, {@code
 * delta_vcpu_seconds} or {@code value}) or utilisation (Cloud Monitoring's {@code
 * instance/cpu/utilization}; column {@code utilization}, {@code utilisation} or {@code
 * cpu_utilization}, as a fraction, or in % when a value exceeds 1.5), with a time column ({@code
 * minute}, {@code start_timestamp} or {@code timestamp}). One file per job: vCPU-seconds are summed
 * over the files, utilisations averaged and turned into vCPU-seconds with the jobs' vCPUs.
 */
public final class VcpuSecondsCsv {
  private VcpuSecondsCsv() {}

  /**
   * Every file (one per job) as that job's vCPU-seconds per minute, with its vCPUs: {@code vcpus}
   * holds one value for every job, or one per file in their order. Utilisation is turned into
   * vCPU-seconds with the job's own vCPUs; a minute that does not fit them is refused.
   */
  public static List<JobCpu> readAll(List<Path> files, List<Integer> vcpus) throws IOException {
    if (vcpus.size() > 1 && vcpus.size() != files.size()) {
      throw new IllegalArgumentException(
          "--vcpus is given "
              + vcpus.size()
              + " times for "
              + files.size()
              + " --cpu file(s): give it once (each job's vCPUs, all alike) or once per --cpu file,"
              + " in their order");
    }
    if (vcpus.stream().anyMatch(v -> v <= 0)) {
      throw new IllegalArgumentException(
          "--vcpus " + vcpus + ": every value must be a whole number of vCPUs above 0, e.g. 12");
    }
    List<JobCpu> jobs = new ArrayList<>();
    int utilisationFiles = 0;
    for (int i = 0; i < files.size(); i++) {
      Path file = files.get(i);
      if (Files.isRegularFile(file)) {
        Utf8Text.require(file);
      }
      int jobVcpus = vcpus.isEmpty() ? 0 : vcpus.get(vcpus.size() == 1 ? 0 : i);
      Map<Instant, Double> values = read(file);
      if (isUtilisation(file)) {
        utilisationFiles++;
        if (jobVcpus <= 0) {
          throw new IllegalArgumentException(
              "--cpu with utilisation needs --vcpus N (each job's vCPUs) to turn it into"
                  + " vCPU-seconds");
        }
        boolean percent = values.values().stream().anyMatch(v -> v > 1.5);
        Map<Instant, Double> seconds = new TreeMap<>();
        int n = jobVcpus;
        values.forEach((m, v) -> seconds.put(m, (percent ? v / 100 : v) * n * 60));
        values = seconds;
      }
      JobCpu job = new JobCpu(jobName(file), jobVcpus, values);
      if (jobVcpus > 0) {
        job.requireFits(file.toString());
      }
      jobs.add(job);
    }
    if (utilisationFiles > 0 && utilisationFiles < files.size()) {
      throw new IllegalArgumentException(
          "--cpu files mix vCPU-seconds and utilisation: give one kind (all jobs alike)");
    }
    return jobs;
  }

  /** A job is named by its --cpu file: {@code job-a.csv} is job-a. */
  public static String jobName(Path file) {
    return file.getFileName().toString().replaceFirst("\\.[^.]*$", "");
  }

  private static final String[] UTILISATION = {"utilization", "utilisation", "cpu_utilization"};

  private static boolean isUtilisation(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException("--cpu file " + file + " does not exist");
    }
    try (BufferedReader r = Files.newBufferedReader(file)) {
      String header = r.readLine();
      return header != null
          && Arrays.stream(header.split(","))
              .map(h -> h.trim().replace("\"", ""))
              .anyMatch(h -> Arrays.asList(UTILISATION).contains(h));
    }
  }

  /** Values per minute of one file (vCPU-seconds, or utilisation as written). */
  public static Map<Instant, Double> read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException("--cpu file " + file + " does not exist");
    }
    Map<Instant, Double> perMinute = new TreeMap<>();
    try (MappingIterator<Map<String, String>> it =
        new CsvMapper()
            .readerFor(Map.class)
            .with(CsvSchema.emptySchema().withHeader())
            .readValues(file.toFile())) {
      int line = 1;
      while (it.hasNextValue()) {
        Map<String, String> r = it.nextValue();
        line++;
        String time = CsvRows.first(r, "minute", "start_timestamp", "timestamp");
        String value =
            CsvRows.first(
                r,
                "vcpu_seconds",
                "delta_vcpu_seconds",
                "value",
                UTILISATION[0],
                UTILISATION[1],
                UTILISATION[2]);
        if (time == null || value == null) {
          throw new IOException(
              file
                  + " needs a time column (minute, start_timestamp or timestamp) and a value"
                  + " column (vcpu_seconds, delta_vcpu_seconds, value, or utilization); it has "
                  + r.keySet());
        }
        try {
          perMinute.merge(
              TimelineCsv.parseTimestamp(time, file, line), Double.parseDouble(value), Double::sum);
        } catch (NumberFormatException e) {
          throw new IOException(file + " line " + line + ": '" + value + "' is not a number");
        }
      }
    }
    return perMinute;
  }
}
