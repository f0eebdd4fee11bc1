package dev.ingestbench.events;

/** A message payload that is not a valid taxi-ride event; the message names what is wrong. */
public class MalformedEventException extends RuntimeException {
  public MalformedEventException(String message) {
    super(message);
  }

  public MalformedEventException(String message, Throwable cause) {
    super(message, cause);
  }
}
