package dev.ingestbench.analysis.source;

import dev.ingestbench.analysis.model.TimelineRow;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds a row of the view repeated in one export (the same table, minute, stream type and error
 * code), which would otherwise be added twice. Exports come ordered by time, so only the current
 * minute's rows are kept (a few hundred, not a day's 288,000); a timestamp going back (a file
 * pasted after itself) switches to remembering every row.
 */
final class RepeatedRows {
  private Instant minute;
  private final Map<TimelineRow.Key, Integer> current = new HashMap<>();
  private Map<TimelineRow.Key, Integer> all;

  /**
   * The line of an earlier row with {@code row}'s key, or null. {@code earlier} are the rows read
   * before it, row {@code i} on line {@code i + 2} (after the header).
   */
  Integer earlierLine(TimelineRow row, int line, List<TimelineRow> earlier) {
    if (all == null && minute != null && row.start().isBefore(minute)) {
      all = new HashMap<>();
      for (int i = 0; i < earlier.size(); i++) {
        all.putIfAbsent(earlier.get(i).key(), i + 2);
      }
    }
    if (all != null) {
      return all.putIfAbsent(row.key(), line);
    }
    if (!row.start().equals(minute)) {
      minute = row.start();
      current.clear();
    }
    return current.putIfAbsent(row.key(), line);
  }
}
