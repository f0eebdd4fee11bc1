package dev.ingestbench.consumer.sink;

import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableSchema;
import dev.ingestbench.contracts.job.TableCreation;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServicesImpl;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --createTables=ahead}: every destination table made before the pipeline starts, with the
 * schema and routing description the write would give it, through Beam's own DatasetService (which
 * takes an existing table as made and backs off when tables.insert's quota refuses it). The
 * pipeline then writes with CREATE_NEVER, paying no table check at its first append.
 */
public final class TablesAhead {
  private static final Logger LOG = LoggerFactory.getLogger(TablesAhead.class);

  /** The label each table made here carries: how a later start knows they were all made. */
  static final String MADE_AHEAD_LABEL = "ingestbench_tables";

  static final String MADE_AHEAD_VALUE = "made-ahead";

  /** How often a long creation says how far it is. */
  private static final int PROGRESS_EVERY = 1_000;

  private TablesAhead() {}

  /** Makes {@code target}'s tables when it asks for them ahead; otherwise does nothing. */
  public static void create(
      TableTarget target,
      TableSchema schema,
      BigQueryOptions options,
      @Nullable BigQueryServices services)
      throws Exception {
    if (target.creation() != TableCreation.AHEAD) {
      return;
    }
    long started = System.nanoTime();
    BigQueryServices bigQuery = services != null ? services : new BigQueryServicesImpl();
    try (BigQueryServices.DatasetService datasets = bigQuery.getDatasetService(options)) {
      // Tables made here are made in order and labelled, so the last one exists with the label
      // only once all do: a restarted consumer, or a second job of the same routing, asks once
      // instead of inserting every table again (10,000 conflicts at 100 a second would hold its
      // start for 100 s). Without the label the last table may have been made by a write's
      // CREATE_IF_NEEDED, which says nothing of the others: they are made.
      Table last = datasets.getTable(reference(target, target.tables() - 1));
      if (last != null
          && last.getLabels() != null
          && MADE_AHEAD_VALUE.equals(last.getLabels().get(MADE_AHEAD_LABEL))
          && java.util.Objects.equals(target.routing().description(), last.getDescription())) {
        LOG.info(
            "The {} table(s) exist already, made ahead with this routing: not made again",
            target.tables());
        return;
      }
      for (int k = 0; k < target.tables(); k++) {
        datasets.createTable(
            new Table()
                .setTableReference(reference(target, k))
                .setSchema(schema)
                .setDescription(target.routing().description())
                .setLabels(java.util.Map.of(MADE_AHEAD_LABEL, MADE_AHEAD_VALUE)));
        if ((k + 1) % PROGRESS_EVERY == 0) {
          LOG.info("Created {} of {} tables ahead", k + 1, target.tables());
        }
      }
    }
    LOG.info(
        "Created {} table(s) ahead in {} s",
        target.tables(),
        String.format(java.util.Locale.ROOT, "%.1f", (System.nanoTime() - started) / 1e9));
  }

  private static TableReference reference(TableTarget target, int k) {
    return new TableReference()
        .setProjectId(target.project())
        .setDatasetId(target.dataset())
        .setTableId(target.tableId(k));
  }
}
