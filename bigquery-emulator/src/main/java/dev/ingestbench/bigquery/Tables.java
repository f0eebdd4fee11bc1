package dev.ingestbench.bigquery;

import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.cloud.bigquery.storage.v1.StorageError;
import com.google.cloud.bigquery.storage.v1.TableSchema;
import dev.ingestbench.contracts.JobRouting;
import dev.ingestbench.contracts.job.TableRouting;
import io.grpc.Status;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The tables of the local BigQuery, as the REST API creates them. Datasets always exist, as in a
 * project prepared for a round; tables must be created (Beam does it with {@code
 * CREATE_IF_NEEDED}).
 */
final class Tables {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Tables.class);

  /**
   * A table and its schema in the Storage Write API's form, converted once.
   *
   * @param route which events belong in it, when its description states a routing and its name its
   *     number ({@link TableRouting}); null: every event may be in it
   */
  record Entry(Table table, TableSchema protoSchema, @Nullable Route route) {}

  /** Table {@code table} of {@code routing}'s tables. */
  record Route(TableRouting routing, int table) {
    /** The table this event belongs in. */
    int tableOf(long eventIndex) {
      return routing.tableOf(eventIndex);
    }
  }

  private final Map<TableId, Entry> tables = new ConcurrentHashMap<>();

  /**
   * Creates {@code table}; false when a table of that name exists (the REST API answers 409). A
   * second create that states another routing than the table's (two jobs that share table names and
   * route differently) leaves the table unchecked from then on: either job's rows would be checked
   * against the other's routing and reported as misrouted.
   */
  boolean create(TableId id, Table table) {
    TableSchema proto =
        toProto(table.getSchema() == null ? List.of() : table.getSchema().getFields());
    Route route = route(id, table);
    Entry existing = tables.putIfAbsent(id, new Entry(table, proto, route));
    if (existing != null
        && existing.route() != null
        && (route == null || !route.routing().equals(existing.route().routing()))) {
      tables.replace(id, existing, new Entry(existing.table(), existing.protoSchema(), null));
      LOG.warn(
          "Table {} is asked for again with another routing ({} against {}): its rows are no"
              + " longer checked for their table",
          id.resource(),
          route == null ? "none" : route.routing().description(),
          existing.route().routing().description());
    }
    return existing == null;
  }

  private static @Nullable Route route(TableId id, Table table) {
    TableRouting routing = TableRouting.fromDescription(table.getDescription());
    int k = TableRouting.indexOfTable(id.table());
    return routing == null || k < 0 || k >= routing.tables() ? null : new Route(routing, k);
  }

  /** The routing each job declared ({@link JobRouting}), by job name. */
  private final Map<String, JobRouting> declared = new ConcurrentHashMap<>();

  void declare(String job, JobRouting routing) {
    routing.routing(); // checked: a bad count or skew is refused here, not at the first row
    declared.put(job, routing);
  }

  /**
   * Which events of {@code job} belong in table {@code id}: by the routing the job declared when it
   * did (a table of the job's that is not one of its destinations, e.g. its dead letters, is not
   * checked), else by the routing the table's description states; null: not checked.
   */
  @Nullable Route routeOf(String job, TableId id, Entry entry) {
    JobRouting routing = job == null ? null : declared.get(job);
    if (routing == null) {
      return entry.route();
    }
    int k = TableRouting.indexOfTable(id.table());
    boolean ours =
        routing.dataset().equals(id.dataset())
            && id.table().equals(routing.table() + "_" + k)
            && k >= 0
            && k < routing.tables();
    return ours ? new Route(routing.routing(), k) : null;
  }

  @Nullable Entry get(TableId id) {
    return tables.get(id);
  }

  boolean delete(TableId id) {
    return tables.remove(id) != null;
  }

  /** The table, or NOT_FOUND as the Storage Write API answers for a missing table. */
  Entry require(TableId id) {
    Entry entry = tables.get(id);
    if (entry == null) {
      throw new WriteApiException(
          Status.Code.NOT_FOUND,
          StorageError.StorageErrorCode.TABLE_NOT_FOUND,
          id.resource(),
          "Requested entity was not found: table " + id.resource());
    }
    return entry;
  }

  /** The REST schema (legacy and standard SQL type names) as the Storage Write API describes it. */
  static TableSchema toProto(List<TableFieldSchema> fields) {
    TableSchema.Builder schema = TableSchema.newBuilder();
    for (TableFieldSchema field : fields) {
      schema.addFields(toProto(field));
    }
    return schema.build();
  }

  private static com.google.cloud.bigquery.storage.v1.TableFieldSchema toProto(
      TableFieldSchema field) {
    var proto =
        com.google.cloud.bigquery.storage.v1.TableFieldSchema.newBuilder()
            .setName(field.getName())
            .setType(type(field.getType()))
            .setMode(mode(field.getMode()));
    if (field.getFields() != null) {
      for (TableFieldSchema nested : field.getFields()) {
        proto.addFields(toProto(nested));
      }
    }
    if (field.getDescription() != null) {
      proto.setDescription(field.getDescription());
    }
    return proto.build();
  }

  private static com.google.cloud.bigquery.storage.v1.TableFieldSchema.Type type(String type) {
    return switch (type == null ? "STRING" : type.toUpperCase(Locale.ROOT)) {
      case "STRING" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Type.STRING;
      case "INTEGER", "INT64" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Type.INT64;
      case "FLOAT", "FLOAT64" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Type.DOUBLE;
      case "BOOLEAN", "BOOL" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Type.BOOL;
      case "BYTES" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Type.BYTES;
      case "TIMESTAMP" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Type.TIMESTAMP;
      case "DATE" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Type.DATE;
      case "TIME" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Type.TIME;
      case "DATETIME" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Type.DATETIME;
      case "NUMERIC" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Type.NUMERIC;
      case "BIGNUMERIC" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Type.BIGNUMERIC;
      case "GEOGRAPHY" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Type.GEOGRAPHY;
      case "JSON" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Type.JSON;
      case "RECORD", "STRUCT" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Type.STRUCT;
      default -> throw new IllegalArgumentException("unsupported column type " + type);
    };
  }

  private static com.google.cloud.bigquery.storage.v1.TableFieldSchema.Mode mode(String mode) {
    return switch (mode == null ? "NULLABLE" : mode.toUpperCase(Locale.ROOT)) {
      case "REQUIRED" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Mode.REQUIRED;
      case "REPEATED" -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Mode.REPEATED;
      default -> com.google.cloud.bigquery.storage.v1.TableFieldSchema.Mode.NULLABLE;
    };
  }
}
