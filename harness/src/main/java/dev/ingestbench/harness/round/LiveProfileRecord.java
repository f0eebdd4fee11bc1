package dev.ingestbench.harness.round;

import dev.ingestbench.contracts.LiveProfileResult;
import dev.ingestbench.contracts.RateProfile;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.SendSchedule;
import dev.ingestbench.contracts.WindowLatency;
import dev.ingestbench.harness.process.BigQueryEmulatorRest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code round --live-profile}: once every job has written the live messages, each step's window
 * (by intended send time, from the earliest shard's schedule), the backlog at its end (from the
 * jobs' progress, read once a second while the live publisher ran) and each job's latency of the
 * messages meant to be sent in it, read from the local BigQuery before it stops, into {@code
 * live_profile.json}; a live phase at one rate the same way as two halves, into {@code
 * live_halves.json}.
 */
final class LiveProfileRecord {
  private LiveProfileRecord() {}

  static LiveProfileResult write(
      BigQueryEmulatorRest rest,
      RateProfile profile,
      double baseRate,
      long firstLiveIndex,
      List<String> jobs,
      List<long[]> progress,
      String runId,
      Path out,
      String file)
      throws IOException {
    long startMicros = Long.MAX_VALUE;
    for (SendSchedule step : rest.schedule()) {
      if (step.firstIndex() >= firstLiveIndex) {
        startMicros = Math.min(startMicros, step.startEpochMicros());
      }
    }
    if (startMicros == Long.MAX_VALUE) {
      throw new IOException(
          "the live messages' schedule did not reach the local BigQuery: no step of --live-profile"
              + " can be measured");
    }
    long from = startMicros / 1000;
    List<LiveProfileResult.Step> steps = new ArrayList<>();
    int n = 0;
    long meant = 0;
    for (RateProfile.Step s : profile.steps()) {
      long to = from + s.seconds() * 1000;
      // The local BigQuery keeps latency per whole second of intended time: the whole seconds
      // inside the step, and what was meant to be sent in them.
      long wholeFrom = Math.floorDiv(from + 999, 1000L) * 1000;
      long wholeTo = Math.floorDiv(to, 1000L) * 1000;
      Map<String, WindowLatency> byJob = new LinkedHashMap<>();
      // A step without a whole second in it (a second that starts part-way) has no latency.
      for (String job : wholeTo > wholeFrom ? jobs : List.<String>of()) {
        byJob.put(job, rest.windowLatency(job, wholeFrom, wholeTo));
      }
      double rate = baseRate * s.multiplier();
      meant += RateProfile.messagesOf(s, baseRate);
      // The last progress reading at or before the step's end: what the slowest job had accounted
      // for of the live messages then, against what was meant to be sent by then.
      long[] at = null;
      for (long[] p : progress) {
        if (p[0] <= to) {
          at = p;
        }
      }
      Long backlog = at == null ? null : Math.max(0, meant - (at[1] - firstLiveIndex));
      Long backlogAt = at == null ? null : at[0];
      steps.add(
          new LiveProfileResult.Step(
              ++n,
              s.multiplier(),
              rate,
              from,
              to,
              RateProfile.messagesOf(s, baseRate),
              Math.round(rate * Math.max(0, wholeTo - wholeFrom) / 1000.0),
              backlog,
              backlogAt,
              byJob));
      from = to;
    }
    LiveProfileResult result =
        new LiveProfileResult(runId, profile.toString(), baseRate, startMicros / 1000, steps);
    RunJson.write(out.resolve(file), result);
    return result;
  }
}
