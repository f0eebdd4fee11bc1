package dev.ingestbench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ingestbench.consumer.rows.RowSchemas;
import dev.ingestbench.contracts.job.RowFormat;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Prints a table schema in the JSON form {@code bq mk --table} takes, from the consumer's own
 * definition.
 */
@Command(
    name = "schema",
    mixinStandardHelpOptions = true,
    description = {
      "Print the BigQuery schema of the consumer's rows as bq's JSON schema file.",
      "  ingestbench schema --row-format typed > typed.json && bq mk --table P:D.T typed.json"
    })
final class SchemaCommand implements Callable<Integer> {
  @Option(
      names = "--row-format",
      defaultValue = "json-column",
      description = "json-column, typed, or dead-letter (default: ${DEFAULT-VALUE}).")
  String rowFormat;

  @Override
  public Integer call() throws Exception {
    var schema =
        rowFormat.equals("dead-letter")
            ? RowSchemas.deadLetter()
            : RowSchemas.forFormat(RowFormat.fromFlag(rowFormat));
    System.out.println(
        new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .writeValueAsString(schema.getFields()));
    return 0;
  }
}
