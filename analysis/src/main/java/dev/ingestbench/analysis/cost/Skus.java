package dev.ingestbench.analysis.cost;

/** The names of what a cost estimate prices: each a price file's {@code sku}. */
public final class Skus {
  public static final String DATAFLOW_VCPU = "dataflow.streaming.vcpu";
  public static final String DATAFLOW_MEMORY = "dataflow.streaming.memory";
  public static final String DATAFLOW_DISK = "dataflow.disk.standard";
  public static final String STREAMING_ENGINE_DATA = "dataflow.streaming-engine.data";
  public static final String STREAMING_ENGINE_COMPUTE_UNIT =
      "dataflow.streaming-engine.compute-unit";
  public static final String STORAGE_WRITE_API = "bigquery.storage-write-api.ingestion";
  public static final String PUBSUB_THROUGHPUT = "pubsub.throughput";

  /** The unit each SKU's formula counts in (docs/cost.md): a price in another is refused. */
  static final java.util.Map<String, PriceUnit> UNITS =
      java.util.Map.of(
          DATAFLOW_VCPU, PriceUnit.VCPU_HOUR,
          DATAFLOW_MEMORY, PriceUnit.GB_HOUR,
          DATAFLOW_DISK, PriceUnit.GB_HOUR,
          STREAMING_ENGINE_DATA, PriceUnit.GB,
          STREAMING_ENGINE_COMPUTE_UNIT, PriceUnit.COMPUTE_UNIT_HOUR,
          STORAGE_WRITE_API, PriceUnit.GIB,
          PUBSUB_THROUGHPUT, PriceUnit.TIB);

  private Skus() {}
}
