package dev.ingestbench.bigquery;

import com.google.cloud.bigquery.storage.v1.StorageError;
import com.google.protobuf.Any;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A request BigQuery would refuse, carried the way the real service carries it: a gRPC status code,
 * and for stream-level errors a {@link StorageError} detail, which is what the Java client turns
 * into {@code OffsetAlreadyExists}, {@code StreamFinalizedException} and the like.
 */
final class WriteApiException extends RuntimeException {
  final Status.Code code;
  final StorageError.@Nullable StorageErrorCode storageCode;
  final String entity;

  WriteApiException(
      Status.Code code,
      StorageError.@Nullable StorageErrorCode storageCode,
      String entity,
      String message) {
    super(message);
    this.code = code;
    this.storageCode = storageCode;
    this.entity = entity;
  }

  static WriteApiException notFound(String entity, String message) {
    return new WriteApiException(Status.Code.NOT_FOUND, null, entity, message);
  }

  static WriteApiException invalid(String entity, String message) {
    return new WriteApiException(Status.Code.INVALID_ARGUMENT, null, entity, message);
  }

  /** The view's {@code error_code} for an append refused with this error. */
  String errorCode() {
    return code.name();
  }

  /** As {@code google.rpc.Status}: the {@code error} of an AppendRowsResponse. */
  com.google.rpc.Status toRpcStatus() {
    com.google.rpc.Status.Builder status =
        com.google.rpc.Status.newBuilder().setCode(code.value()).setMessage(getMessage());
    if (storageCode != null) {
      status.addDetails(
          Any.pack(
              StorageError.newBuilder()
                  .setCode(storageCode)
                  .setEntity(entity)
                  .setErrorMessage(getMessage())
                  .build()));
    }
    return status.build();
  }

  /** As the status that ends a unary call. */
  StatusRuntimeException toStatusException() {
    return StatusProto.toStatusRuntimeException(toRpcStatus());
  }
}
