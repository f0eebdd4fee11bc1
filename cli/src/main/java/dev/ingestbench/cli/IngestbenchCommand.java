package dev.ingestbench.cli;

import dev.ingestbench.analysis.cli.AnalyzeCommand;
import dev.ingestbench.bigquery.BigQueryEmulatorCommand;
import dev.ingestbench.pubsubload.PubsubLoadCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code ingestbench} command: one entry point for rounds, pipelines, analysis and benchmarks.
 */
@Command(
    name = "ingestbench",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = {
      "Load-tests and diagnoses streaming ingestion: Pub/Sub or Kafka -> Apache Beam -> BigQuery Storage Write API.",
      "",
      "Start with: ingestbench round   (a whole local round: publish, consume, analyse, report)"
    },
    subcommands = {
      RoundCommand.class,
      RunCommand.class,
      PublishCommand.class,
      ConsumeCommand.class,
      AnalyzeCommand.class,
      SummaryCommand.class,
      PlanCommand.class,
      PubsubLoadCommand.class,
      JmhCommand.class,
      EmulatorCommand.class,
      KafkaCommand.class,
      FlinkClusterCommand.class,
      BigQueryEmulatorCommand.class,
      SchemaCommand.class,
      AbCommand.class,
      CommandLine.HelpCommand.class
    })
public final class IngestbenchCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line, shared by {@link #main} and tests. */
  public static CommandLine commandLine() {
    // 100 columns: the descriptions are written one sentence per line and the examples are full
    // command lines; picocli's 80 would break both mid-line.
    return new CommandLine(new IngestbenchCommand())
        .setUsageHelpWidth(100)
        .setExecutionExceptionHandler(new UserErrorHandler());
  }
}
