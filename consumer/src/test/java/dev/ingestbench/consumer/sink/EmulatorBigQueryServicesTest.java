package dev.ingestbench.consumer.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableSchema;
import dev.ingestbench.bigquery.BigQueryEmulator;
import dev.ingestbench.bigquery.EmulatorSettings;
import java.util.List;
import org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory;
import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices.DatasetService;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

/** Beam's own REST DatasetService against the emulator: what CREATE_IF_NEEDED relies on. */
class EmulatorBigQueryServicesTest {
  @Test
  void beamsDatasetServiceCreatesAndFindsTablesOverRest() throws Exception {
    try (BigQueryEmulator server = BigQueryEmulator.start(EmulatorSettings.defaults())) {
      BigQueryOptions options = PipelineOptionsFactory.create().as(BigQueryOptions.class);
      options.as(GcpOptions.class).setCredentialFactoryClass(NoopCredentialFactory.class);
      options.setBigQueryEndpoint(server.restUrl());
      TableReference ref =
          new TableReference().setProjectId("my-project").setDatasetId("demo").setTableId("rides");
      try (DatasetService tables =
          new EmulatorBigQueryServices(server.grpcAddress()).getDatasetService(options)) {
        assertNull(tables.getTable(ref));
        tables.createTable(
            new Table()
                .setTableReference(ref)
                .setSchema(
                    new TableSchema()
                        .setFields(
                            List.of(
                                new TableFieldSchema()
                                    .setName("event_index")
                                    .setType("INTEGER")))));
        Table table = tables.getTable(ref);
        assertNotNull(table);
        assertEquals("event_index", table.getSchema().getFields().get(0).getName());
      }
    }
  }
}
