package dev.ingestbench.consumer.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import dev.ingestbench.bigquery.BigQueryEmulator;
import dev.ingestbench.bigquery.EmulatorSettings;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.job.TableCreation;
import dev.ingestbench.contracts.job.TableSkew;
import java.util.List;
import org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory;
import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

/** {@code --createTables=ahead} through Beam's DatasetService against the local BigQuery. */
class TablesAheadTest {
  private static final TableSchema SCHEMA =
      new TableSchema()
          .setFields(List.of(new TableFieldSchema().setName("event_index").setType("INTEGER")));

  /**
   * Every table made once with its routing; a restarted consumer (or a second job of the same
   * routing) asks for the last table once and makes none again; another routing makes them.
   */
  @Test
  void tablesAreMadeOnceAndARestartAsksOnce() throws Exception {
    try (BigQueryEmulator server = BigQueryEmulator.start(EmulatorSettings.defaults())) {
      BigQueryOptions options = PipelineOptionsFactory.create().as(BigQueryOptions.class);
      options.as(GcpOptions.class).setCredentialFactoryClass(NoopCredentialFactory.class);
      options.setBigQueryEndpoint(server.restUrl());
      EmulatorBigQueryServices services = new EmulatorBigQueryServices(server.grpcAddress());
      TableTarget uniform =
          TableTarget.parse(
              "--outputTable",
              "my-project:demo.t",
              null,
              50,
              TableSkew.UNIFORM,
              TableCreation.AHEAD);
      TablesAhead.create(uniform, SCHEMA, options, services);
      EmulatorStatus.ApiCalls first = server.status().apiCalls();
      assertEquals(50, first.tablesInsertCalls(), "every table made");
      assertEquals(1, first.tablesGetCalls(), "the last table asked for first");

      TablesAhead.create(uniform, SCHEMA, options, services);
      EmulatorStatus.ApiCalls again = server.status().apiCalls();
      assertEquals(50, again.tablesInsertCalls(), "none made again");
      assertEquals(2, again.tablesGetCalls());

      TableTarget skewed =
          TableTarget.parse(
              "--outputTable",
              "my-project:demo.t",
              null,
              50,
              new TableSkew(1.1),
              TableCreation.AHEAD);
      TablesAhead.create(skewed, SCHEMA, options, services);
      assertEquals(
          100,
          server.status().apiCalls().tablesInsertCalls(),
          "another routing's description: asked to make them (409s: they exist)");

      TableTarget one =
          TableTarget.parse(
              "--outputTable",
              "my-project:demo.one",
              null,
              1,
              TableSkew.UNIFORM,
              TableCreation.AHEAD);
      TablesAhead.create(one, SCHEMA, options, services);
      TablesAhead.create(one, SCHEMA, options, services);
      assertEquals(
          101,
          server.status().apiCalls().tablesInsertCalls(),
          "one table (no routing description): made once, then found");

      // The last table made by someone else (a write's CREATE_IF_NEEDED, unlabelled): it says
      // nothing of the others, so they are made.
      TableTarget other =
          TableTarget.parse(
              "--outputTable",
              "my-project:demo.v",
              null,
              3,
              TableSkew.UNIFORM,
              TableCreation.AHEAD);
      try (var tables = services.getDatasetService(options)) {
        tables.createTable(
            new com.google.api.services.bigquery.model.Table()
                .setTableReference(
                    new com.google.api.services.bigquery.model.TableReference()
                        .setProjectId("my-project")
                        .setDatasetId("demo")
                        .setTableId(other.tableId(2)))
                .setSchema(SCHEMA)
                .setDescription(other.routing().description()));
      }
      TablesAhead.create(other, SCHEMA, options, services);
      assertEquals(
          101 + 1 + 3, server.status().apiCalls().tablesInsertCalls(), "every table asked for");

      TableTarget ifNeeded =
          TableTarget.parse(
              "--outputTable",
              "my-project:demo.u",
              null,
              50,
              TableSkew.UNIFORM,
              TableCreation.IF_NEEDED);
      TablesAhead.create(ifNeeded, SCHEMA, options, services);
      assertEquals(105, server.status().apiCalls().tablesInsertCalls(), "if-needed: the write's");
    }
  }
}
