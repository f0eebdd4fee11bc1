package dev.ingestbench.dataflow;

import com.google.api.client.googleapis.json.GoogleJsonResponseException;
import com.google.api.services.bigquery.Bigquery;
import com.google.api.services.bigquery.model.Dataset;
import com.google.api.services.bigquery.model.DatasetReference;
import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableSchema;
import dev.ingestbench.consumer.rows.RowSchemas;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.pubsub.PubsubAdmin;
import dev.ingestbench.scenario.JobConfig;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a scenario needs in the project before its first job starts, created when missing and left
 * alone when present (as {@code scripts/gcp-setup.sh} does): the topic, one subscription per job,
 * the dataset in the run's region, every job's data tables and their dead-letter tables, with the
 * consumer's own schemas.
 */
public final class GcpResources {
  private final ScenarioPlan plan;
  private final GcpSettings target;
  private final DataflowLaunches launches;

  public GcpResources(ScenarioPlan plan, GcpSettings target, DataflowLaunches launches) {
    this.plan = plan;
    this.target = target;
    this.launches = launches;
  }

  /**
   * Each table to have, with its schema: data tables by row format, then {@code BASE_dlq} per base
   * table.
   */
  public Map<String, TableSchema> tables() {
    Map<String, TableSchema> tables = new LinkedHashMap<>();
    Map<String, TableSchema> deadLetters = new LinkedHashMap<>();
    for (JobConfig job : plan.jobs().values()) {
      TableSchema schema =
          RowSchemas.forFormat(job.rowFormat() == null ? RowFormat.JSON_COLUMN : job.rowFormat());
      for (String table : launches.dataTables(job)) {
        tables.putIfAbsent(table, schema);
      }
      deadLetters.putIfAbsent(launches.baseTable(job) + "_dlq", RowSchemas.deadLetter());
    }
    tables.putAll(deadLetters);
    return tables;
  }

  public List<String> subscriptions() {
    return plan.jobs().keySet().stream().map(plan::subscription).toList();
  }

  /**
   * --dry-run: the equivalent gcloud and bq commands (each is skipped when its resource exists).
   */
  public List<String> commands() {
    String p = target.project();
    List<String> commands = new ArrayList<>();
    String topic = plan.scenario().source().topic();
    // Every name is validated already (the scenario's against Pub/Sub's rules, the target's against
    // Google Cloud's); quoting is the second line of defence for a line the user pastes into a
    // shell.
    commands.add(
        ShellQuote.line(List.of("gcloud", "pubsub", "topics", "create", topic, "--project=" + p)));
    for (String s : subscriptions()) {
      commands.add(
          ShellQuote.line(
              List.of(
                  "gcloud",
                  "pubsub",
                  "subscriptions",
                  "create",
                  s,
                  "--project=" + p,
                  "--topic=" + topic,
                  "--ack-deadline=" + PubsubAdmin.ACK_DEADLINE_SECONDS)));
    }
    commands.add(
        ShellQuote.line(
            List.of(
                "bq",
                "--project_id=" + p,
                "mk",
                "--dataset",
                "--location=" + target.region(),
                p + ":" + target.dataset())));
    for (Map.Entry<String, TableSchema> t : tables().entrySet()) {
      String schema = t.getKey().endsWith("_dlq") ? "dead-letter" : schemaName(t.getKey());
      commands.add(
          ShellQuote.line(
                  List.of(
                      "bq",
                      "--project_id=" + p,
                      "mk",
                      "--table",
                      p + ":" + target.dataset() + "." + t.getKey()))
              + " <(./ingestbench schema --row-format "
              + schema
              + ")");
    }
    return commands;
  }

  private String schemaName(String table) {
    return table.startsWith(target.table() + "_typed") ? "typed" : "json-column";
  }

  /** Creates what is missing; returns what it created, for the log. */
  public List<String> ensure() throws IOException {
    List<String> created = new ArrayList<>();
    PubsubAdmin.ensureTopicAndSubscriptions(
        target.pubsubEmulatorHost(),
        target.topicPath(plan.scenario().source().topic()),
        subscriptions().stream().map(target::subscriptionPath).toList());
    Bigquery bq = target.bigquery();
    String p = target.project();
    String d = target.dataset();
    if (!exists(() -> bq.datasets().get(p, d).execute())) {
      bq.datasets()
          .insert(
              p,
              new Dataset()
                  .setDatasetReference(new DatasetReference().setProjectId(p).setDatasetId(d))
                  .setLocation(target.region()))
          .execute();
      created.add("dataset " + p + ":" + d);
    }
    for (Map.Entry<String, TableSchema> t : tables().entrySet()) {
      if (!exists(() -> bq.tables().get(p, d, t.getKey()).execute())) {
        bq.tables()
            .insert(
                p,
                d,
                new Table()
                    .setTableReference(
                        new TableReference().setProjectId(p).setDatasetId(d).setTableId(t.getKey()))
                    .setSchema(t.getValue()))
            .execute();
        created.add("table " + p + ":" + d + "." + t.getKey());
      }
    }
    return created;
  }

  private interface Call {
    Object run() throws IOException;
  }

  private static boolean exists(Call get) throws IOException {
    try {
      get.run();
      return true;
    } catch (GoogleJsonResponseException e) {
      if (e.getStatusCode() == 404) {
        return false;
      }
      throw new IOException(
          "BigQuery: " + (e.getDetails() != null ? e.getDetails().getMessage() : e.getMessage()),
          e);
    }
  }
}
