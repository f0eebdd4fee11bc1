package dev.ingestbench.cli;

import dev.ingestbench.analysis.cost.PlanCost;
import dev.ingestbench.analysis.cost.PriceFile;
import dev.ingestbench.analysis.plan.CapacityPlan;
import dev.ingestbench.analysis.plan.PlanMarkdown;
import dev.ingestbench.analysis.plan.PlanRequest;
import dev.ingestbench.analysis.plan.Planner;
import dev.ingestbench.contracts.job.TableCreation;
import dev.ingestbench.contracts.job.TableSkew;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ingestbench plan}: workers, connections and quota for a rate, from measured costs. */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    description = {
      "Plan a Dataflow ingestion: vCPUs and workers from measured per-row costs (naming the"
          + " measurement), Storage Write API connections against the 1,000 limit, the share of the"
          + " regional throughput quota, source throughput, and a warning for every limit met.",
      "  ingestbench plan --rows-per-second 339000 --message-size 500 --write-method at-least-once"
          + " --connection-pool --jobs 2"
    })
final class PlanCommand implements Callable<Integer> {
  @Option(names = "--rows-per-second", required = true, description = "Rows per second per job.")
  double rowsPerSecond;

  @Option(
      names = "--message-size",
      defaultValue = "500",
      description = "Bytes per message (default: ${DEFAULT-VALUE}).")
  int messageSize;

  @Option(
      names = "--message-format",
      defaultValue = "json",
      description = "json or avro (default: ${DEFAULT-VALUE}).")
  String messageFormat;

  @Option(
      names = "--source",
      defaultValue = "pubsub",
      description = "pubsub or kafka (default: ${DEFAULT-VALUE}).")
  String source;

  @Option(
      names = "--row-encoding",
      defaultValue = "tablerow",
      description = "tablerow, beam-row or proto (default: ${DEFAULT-VALUE}).")
  String rowEncoding;

  @Option(
      names = "--row-format",
      defaultValue = "json-column",
      description =
          "json-column or typed (default: ${DEFAULT-VALUE}; beam-row and proto are typed).")
  String rowFormat;

  @Option(
      names = "--destination-tables",
      defaultValue = "1",
      description = "Tables each job writes, 1 to 10,000 (default: ${DEFAULT-VALUE}).")
  int destinationTables;

  @Option(
      names = "--table-skew",
      paramLabel = "SKEW",
      defaultValue = "uniform",
      converter = JobSettingConverters.TableSkews.class,
      description =
          "How rows spread over the tables: uniform, or zipf:S (default: ${DEFAULT-VALUE}).")
  TableSkew tableSkew;

  @Option(
      names = "--create-tables",
      paramLabel = "WHEN",
      defaultValue = "if-needed",
      converter = JobSettingConverters.TableCreations.class,
      description =
          "When the tables are made: if-needed (CREATE_IF_NEEDED) or ahead (default:"
              + " ${DEFAULT-VALUE}).")
  TableCreation tableCreation;

  @Option(
      names = "--max-connection-pool-connections",
      paramLabel = "N",
      defaultValue = "20",
      description =
          "Beam's --maxConnectionPoolConnections: the pool's most connections per worker"
              + " (default: ${DEFAULT-VALUE}).")
  int maxPoolConnections;

  @Option(
      names = "--write-method",
      defaultValue = "exactly-once",
      description = "exactly-once or at-least-once (default: ${DEFAULT-VALUE}).")
  String writeMethod;

  @Option(names = "--connection-pool", description = "Beam's connection pool (at-least-once).")
  boolean connectionPool;

  @Option(
      names = "--jobs",
      defaultValue = "1",
      description = "Jobs, each reading every row (default: ${DEFAULT-VALUE}).")
  int jobs;

  @Option(
      names = "--machine-type",
      defaultValue = "n2-highcpu-8",
      description =
          "Worker machine type (default: ${DEFAULT-VALUE}, as the published Java rounds).")
  String machineType;

  @Option(
      names = "--cpu-target",
      defaultValue = "0.8",
      description = "Share of each worker's CPU the plan may use (default: ${DEFAULT-VALUE}).")
  double cpuTarget;

  @Option(
      names = "--quota-mb-per-second",
      defaultValue = "314.5728",
      description =
          "The region's Storage Write API throughput quota (default: ${DEFAULT-VALUE}, 300 MiB/s as"
              + " the published investigation read it).")
  double quotaMbPerSecond;

  @Option(
      names = "--measured-round",
      paramLabel = "DIR",
      description =
          "Plan from the per-row CPU a round of yours measured (its --out) instead of the published"
              + " rounds': this machine's local runner, said so in the plan.")
  Path measuredRound;

  @Option(
      names = "--region",
      defaultValue = "us-central1",
      description =
          "Where the jobs would run, for the monthly cost (default: ${DEFAULT-VALUE}); a region the"
              + " price file has no price for is refused.")
  String region;

  @Option(
      names = "--prices",
      paramLabel = "FILE",
      description =
          "A price file of your own (negotiated prices, another region), shaped as the built-in one"
              + " (docs/cost.md); default: the list prices the project read with their dates.")
  Path prices;

  @Override
  public Integer call() throws Exception {
    PlanRequest request =
        new PlanRequest(
                rowsPerSecond,
                messageSize,
                messageFormat,
                source,
                rowEncoding,
                rowFormat,
                destinationTables,
                writeMethod,
                connectionPool,
                jobs,
                machineType,
                cpuTarget,
                quotaMbPerSecond,
                tableSkew,
                tableCreation,
                maxPoolConnections)
            .validate();
    CapacityPlan plan =
        measuredRound == null
            ? Planner.plan(request)
            : Planner.plan(request, Planner.measuredBy(measuredRound));
    PriceFile priceFile = prices == null ? PriceFile.builtIn() : PriceFile.read(prices);
    System.out.print(PlanMarkdown.of(plan, PlanCost.of(plan, priceFile, region)));
    return 0;
  }
}
