package dev.ingestbench.consumer.sink;

import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;

/**
 * Points BigQueryIO at a {@link LocalBigQuery} in the same JVM. Serializable by id only: the runner
 * ships this object to its workers (threads, for in-process runners) and each looks the sink up.
 */
public final class LocalBigQueryServices implements BigQueryServices {
  private final String sinkId;

  LocalBigQueryServices(String sinkId) {
    this.sinkId = sinkId;
  }

  @Override
  public JobService getJobService(BigQueryOptions options) {
    throw new UnsupportedOperationException(
        "the local BigQuery sink implements the Storage Write API only, not load or query jobs");
  }

  @Override
  public DatasetService getDatasetService(BigQueryOptions options) {
    return LocalBigQuery.lookup(sinkId);
  }

  @Override
  public WriteStreamService getWriteStreamService(BigQueryOptions options) {
    return LocalBigQuery.lookup(sinkId);
  }

  @Override
  public StorageClient getStorageClient(BigQueryOptions options) {
    throw new UnsupportedOperationException(
        "the local BigQuery sink implements the Storage Write API only, not the read API");
  }
}
