package dev.ingestbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/**
 * What the REST stand-ins share: reading a (possibly gzipped) JSON request, and JSON replies in
 * Google's error shape.
 */
final class JsonReplies {
  static final ObjectMapper JSON = new ObjectMapper();

  private JsonReplies() {}

  /** The request body as JSON (the Google clients gzip some bodies); JSON null when empty. */
  static JsonNode body(HttpExchange exchange) throws IOException {
    InputStream in = exchange.getRequestBody();
    if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
      in = new GZIPInputStream(in);
    }
    byte[] raw = in.readAllBytes();
    return raw.length == 0 ? JSON.nullNode() : JSON.readTree(raw);
  }

  static ObjectNode error(int code, String message) {
    ObjectNode e = JSON.createObjectNode();
    e.putObject("error").put("code", code).put("message", message);
    return e;
  }

  static void send(HttpExchange exchange, int status, JsonNode reply) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(reply);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }
}
