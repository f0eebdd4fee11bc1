package dev.ingestbench.analysis.scenario;

import dev.ingestbench.analysis.cost.MachineMemory;
import dev.ingestbench.analysis.cost.PriceFile;
import dev.ingestbench.analysis.cost.Workload;
import dev.ingestbench.analysis.cost.WorkloadCost;
import dev.ingestbench.contracts.ResultLabel;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An hour of one job's load in a stage on Dataflow, at the stage's steady rate (docs/cost.md): its
 * rows at the CPU per row the stage measured, on the job's machine type (a local job's: the plan's
 * n2-highcpu-8), what it read from its subscription and the publishing of it, what it wrote. The
 * job's load alone: jobs sharing a topic share its publishing, which a sum over jobs counts once
 * per job.
 */
final class StageCost {
  static final String REGION = "us-central1";
  private static final String LOCAL_MACHINE = "n2-highcpu-8";
  private static final Pattern VCPUS = Pattern.compile(".*-(\\d{1,3})");

  private StageCost() {}

  /** Empty where the stage measured no rate or CPU, or the job's labels lack its message size. */
  static Optional<WorkloadCost> hour(StageMeasures m, Map<String, String> labels) {
    if (labels == null || m.rows() == 0) {
      return Optional.empty();
    }
    double rate = m.rowsPerSecond().mean();
    double perCpuSecond = m.rowsPerCpuSecond();
    String size = labels.get(ResultLabel.MESSAGE_SIZE.key());
    String machine = labels.getOrDefault(ResultLabel.MACHINE_TYPE.key(), LOCAL_MACHINE);
    Matcher vcpus = VCPUS.matcher(machine);
    if (!(rate > 0) || !(perCpuSecond > 0) || size == null || !vcpus.matches()) {
      return Optional.empty();
    }
    double gbPerVcpu;
    try {
      gbPerVcpu = MachineMemory.gbPerVcpu(machine);
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // a machine type whose memory is not known: no cost, not a guess
    }
    double read = rate * 3600 * Integer.parseInt(size);
    return Optional.of(
        WorkloadCost.of(
            new Workload(
                "an hour",
                1,
                rate / perCpuSecond,
                String.format(
                    Locale.ROOT,
                    "%.3g vCPUs fully used (%,.0f rows/s ÷ %,.0f rows per CPU-second, the stage's)",
                    rate / perCpuSecond,
                    rate,
                    perCpuSecond),
                Integer.parseInt(vcpus.group(1)),
                gbPerVcpu,
                machine,
                read,
                read,
                1,
                m.mbPerSecond().mean() * 1e6 * 3600,
                "exactly-once".equals(labels.get(ResultLabel.WRITE_METHOD.key())),
                !"kafka".equals(labels.get(ResultLabel.SOURCE.key()))),
            PriceFile.builtIn(),
            REGION));
  }
}
