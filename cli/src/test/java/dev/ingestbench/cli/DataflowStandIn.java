package dev.ingestbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A loopback stand-in of the Dataflow REST API (v1b3) for one project and region: it records every
 * request and answers as Dataflow would. A launched consumer is PENDING on its first state read and
 * RUNNING after; while it runs, its {@code recordsAppended} counter grows by {@link
 * #ROWS_PER_SECOND} a second (job b's by half as much) and its vCPU time by 12 a second. A
 * publisher is DONE on its third state read. A stop request moves the job to the requested state.
 * {@link #failOnStart} makes a job FAILED instead of RUNNING.
 */
final class DataflowStandIn implements AutoCloseable {
  static final double ROWS_PER_SECOND = 10_000;
  private static final Pattern JOB =
      Pattern.compile("/v1b3/projects/([^/]+)/locations/([^/]+)/jobs/([^/:]+)(/metrics)?");
  private static final Pattern LAUNCH =
      Pattern.compile("/v1b3/projects/([^/]+)/locations/([^/]+)/flexTemplates:launch");
  private static final ObjectMapper JSON = JsonReplies.JSON;

  /** One request as received: when, method, path, body. */
  record Request(long atMillis, String method, String path, JsonNode body) {}

  /** A launched job as the stand-in tracks it. */
  static final class Job {
    final String id;
    final String name;
    final JsonNode launch;
    String state = "JOB_STATE_PENDING";
    int stateReads;
    long runningSinceMillis;
    double frozenRows = -1;

    Job(String id, String name, JsonNode launch) {
      this.id = id;
      this.name = name;
      this.launch = launch;
    }

    boolean isPublisher() {
      return launch.path("containerSpecGcsPath").asText().endsWith("ingestbench-publisher.json");
    }

    double rows(long now) {
      if (frozenRows >= 0) {
        return frozenRows;
      }
      double rate = name.endsWith("-b") ? ROWS_PER_SECOND / 2 : ROWS_PER_SECOND;
      return runningSinceMillis == 0 ? 0 : rate * (now - runningSinceMillis) / 1000.0;
    }
  }

  private final HttpServer server;
  private final String project;
  private final String region;
  final List<Request> requests = new ArrayList<>();
  final Map<String, Job> jobs = new LinkedHashMap<>();
  volatile String failOnStart = "";

  /** A consumer job whose name ends with "-" + this fails 2 s after it started running. */
  volatile String failWhileRunning = "";

  DataflowStandIn(String project, String region) throws IOException {
    this.project = project;
    this.region = region;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
  }

  synchronized List<Request> requests() {
    return List.copyOf(requests);
  }

  synchronized List<Job> launched() {
    return List.copyOf(jobs.values());
  }

  private synchronized void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      JsonNode body = JsonReplies.body(exchange);
      String path = exchange.getRequestURI().getPath();
      long now = System.currentTimeMillis();
      requests.add(new Request(now, exchange.getRequestMethod(), path, body));
      Matcher launch = LAUNCH.matcher(path);
      Matcher job = JOB.matcher(path);
      if (launch.matches() && exchange.getRequestMethod().equals("POST") && scope(launch)) {
        JsonNode parameter = body.path("launchParameter");
        Job j =
            new Job(
                "2026-11-23_job-" + (jobs.size() + 1),
                parameter.path("jobName").asText(),
                parameter);
        jobs.put(j.id, j);
        ObjectNode reply = JSON.createObjectNode();
        reply.putObject("job").put("id", j.id).put("name", j.name).put("currentState", j.state);
        JsonReplies.send(exchange, 200, reply);
      } else if (job.matches() && scope(job) && jobs.containsKey(job.group(3))) {
        Job j = jobs.get(job.group(3));
        if (job.group(4) != null) {
          JsonReplies.send(exchange, 200, metrics(j, now));
        } else if (exchange.getRequestMethod().equals("GET")) {
          advance(j, now);
          ObjectNode reply =
              JSON.createObjectNode()
                  .put("id", j.id)
                  .put("name", j.name)
                  .put("currentState", j.state);
          JsonReplies.send(exchange, 200, reply);
        } else if (exchange.getRequestMethod().equals("PUT")) {
          String requested = body.path("requestedState").asText();
          j.frozenRows = j.rows(now);
          j.state = requested;
          JsonReplies.send(
              exchange, 200, JSON.createObjectNode().put("id", j.id).put("currentState", j.state));
        } else {
          JsonReplies.send(exchange, 405, JsonReplies.error(405, "method not allowed"));
        }
      } else {
        JsonReplies.send(
            exchange,
            404,
            JsonReplies.error(404, "not found: " + exchange.getRequestMethod() + " " + path));
      }
    }
  }

  private boolean scope(Matcher m) {
    return m.group(1).equals(project) && m.group(2).equals(region);
  }

  private void advance(Job j, long now) {
    j.stateReads++;
    if (j.isPublisher()) {
      j.state = j.stateReads >= 3 ? "JOB_STATE_DONE" : "JOB_STATE_RUNNING";
    } else if (j.state.equals("JOB_STATE_PENDING") && j.stateReads >= 2) {
      if (!failOnStart.isEmpty() && j.name.endsWith("-" + failOnStart)) {
        j.state = "JOB_STATE_FAILED";
      } else {
        j.state = "JOB_STATE_RUNNING";
        j.runningSinceMillis = now;
      }
    } else if (j.state.equals("JOB_STATE_RUNNING")
        && !failWhileRunning.isEmpty()
        && j.name.endsWith("-" + failWhileRunning)
        && now - j.runningSinceMillis >= 2_000) {
      j.state = "JOB_STATE_FAILED";
    }
  }

  private static ObjectNode metrics(Job j, long now) {
    ObjectNode reply = JSON.createObjectNode();
    ArrayNode metrics = reply.putArray("metrics");
    double rows = j.rows(now);
    // committed and tentative values of a user counter, as a streaming job reports them
    counter(metrics, "user", "recordsAppended", rows, false);
    counter(metrics, "user", "recordsAppended", rows + 999, true);
    counter(metrics, "user", "message_bytes", rows * 500, false);
    counter(metrics, "dataflow/v1b3", "TotalVcpuTime", rows / ROWS_PER_SECOND * 12, false);
    return reply;
  }

  private static void counter(
      ArrayNode metrics, String origin, String name, double value, boolean tentative) {
    ObjectNode m = metrics.addObject();
    ObjectNode n = m.putObject("name").put("origin", origin).put("name", name);
    ObjectNode context = n.putObject("context").put("step", "s7");
    if (tentative) {
      context.put("tentative", "true");
    }
    m.put("scalar", Math.round(value));
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
