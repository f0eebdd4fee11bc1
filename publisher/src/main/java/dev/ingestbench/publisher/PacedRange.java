package dev.ingestbench.publisher;

import dev.ingestbench.contracts.SendPacer;
import dev.ingestbench.contracts.SendSchedule;
import java.io.IOException;

/**
 * A shard's pacing of its range: its share of {@code --ratePerSecond}, stepped by {@code
 * --rateProfile} when given, with its schedule told to the local BigQuery ({@code
 * --sendScheduleUrl}) before the first message goes.
 */
final class PacedRange {
  private PacedRange() {}

  /** Starts pacing {@code range} now; null when the run is not rate-limited. */
  static SendPacer start(PublishSettings settings, EventRange range) throws IOException {
    if (!(settings.ratePerShard() > 0)) {
      return null;
    }
    SendPacer pacer =
        settings.rateProfile() == null
            ? new SendPacer(range.start(), settings.ratePerShard())
            : new SendPacer(range.start(), settings.ratePerShard(), settings.rateProfile());
    for (SendSchedule step : pacer.start()) {
      if (settings.sendScheduleUrl() != null) {
        ScheduleClient.send(settings.sendScheduleUrl(), step);
      }
    }
    return pacer;
  }
}
