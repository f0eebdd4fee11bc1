package dev.ingestbench.consumer.rows;

import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.events.MessageFormat;
import java.io.Serializable;

/**
 * One of the message-to-row functions ({@link MessageToRow}, {@link MessageToBeamRow}, {@link
 * MessageToProto}).
 */
@FunctionalInterface
public interface RowBuilder<T> extends Serializable {
  /**
   * @throws dev.ingestbench.events.MalformedEventException when the message cannot become a row
   */
  T build(MessageFormat message, RowFormat format, MessageMetadata metadata, byte[] payload);
}
