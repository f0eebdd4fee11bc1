package dev.ingestbench.consumer.sink;

import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServicesImpl;
import org.apache.beam.sdk.io.gcp.bigquery.EmulatorWriteStreamService;

/**
 * Points BigQueryIO at the local BigQuery emulator through Beam's own clients: tables through
 * Beam's REST {@code DatasetService} at {@code --bigQueryEndpoint}, rows through the official
 * Storage Write API client (StreamWriter, and its multiplexing pool with {@code
 * --useStorageApiConnectionPool}) at {@code --storageWriteEndpoint} on a plaintext channel.
 */
public final class EmulatorBigQueryServices implements BigQueryServices {
  private final String storageWriteEndpoint;

  public EmulatorBigQueryServices(String storageWriteEndpoint) {
    this.storageWriteEndpoint = storageWriteEndpoint;
  }

  @Override
  public JobService getJobService(BigQueryOptions options) {
    throw new UnsupportedOperationException(
        "the local BigQuery implements the Storage Write API and tables, not load or query jobs");
  }

  @Override
  public DatasetService getDatasetService(BigQueryOptions options) {
    return new BigQueryServicesImpl.DatasetServiceImpl(options);
  }

  @Override
  public WriteStreamService getWriteStreamService(BigQueryOptions options) {
    return EmulatorWriteStreamService.create(storageWriteEndpoint, options);
  }

  @Override
  public StorageClient getStorageClient(BigQueryOptions options) {
    throw new UnsupportedOperationException(
        "the local BigQuery implements the Storage Write API and tables, not the read API");
  }
}
