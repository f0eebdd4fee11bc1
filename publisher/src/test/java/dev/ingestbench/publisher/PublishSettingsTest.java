package dev.ingestbench.publisher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

class PublishSettingsTest {
  private static PublisherOptions options(String... extra) {
    PipelineOptionsFactory.register(PublisherOptions.class);
    String[] args = new String[extra.length + 2];
    args[0] = "--project=ingestbench-test";
    args[1] = "--topic=rides";
    System.arraycopy(extra, 0, args, 2, extra.length);
    return PipelineOptionsFactory.fromArgs(args).as(PublisherOptions.class);
  }

  private static String failure(String... extra) {
    return assertThrows(IllegalArgumentException.class, () -> PublishSettings.from(options(extra)))
        .getMessage();
  }

  @Test
  void defaultsUseTheServiceMaximumBatchAndBlockingFlowControl() {
    PublishSettings s = PublishSettings.from(options());
    assertEquals("projects/ingestbench-test/topics/rides", s.topicPath());
    assertEquals(1000, s.batchMaxMessages());
    assertEquals(PublisherOptions.FlowControlBehavior.BLOCK, s.flowControlBehavior());
    assertEquals(500, s.messageSizeBytes());
  }

  @Test
  void batchesBeyondTheServiceLimitsAreRefusedWithTheLimit() {
    assertTrue(failure("--batchMaxMessages=5000").contains("1..1000"));
    assertTrue(failure("--batchMaxBytes=20000000").contains("10 MB"));
  }

  @Test
  void batchesToAnEmulatorStayUnderItsFourMebibyteRequestLimit() {
    assertEquals(
        PublishSettings.EMULATOR_MAX_BATCH_BYTES,
        PublishSettings.from(options("--pubsubEmulatorHost=127.0.0.1:1")).batchMaxBytes());
    assertEquals(9_500_000, PublishSettings.from(options("--pubsubEmulatorHost=")).batchMaxBytes());
  }

  @Test
  void flowControlMustAdmitAtLeastOneBatch() {
    assertTrue(
        failure("--maxOutstandingMessages=10", "--batchMaxMessages=100")
            .contains("--maxOutstandingMessages"));
  }

  @Test
  void negativeCountsAndRatesAreRefused() {
    assertTrue(failure("--numMessages=-1").contains("--numMessages"));
    assertTrue(failure("--ratePerSecond=-5").contains("--ratePerSecond"));
    assertTrue(failure("--firstEventIndex=-5").contains("--firstEventIndex"));
  }

  @Test
  void theRateIsSharedEquallyByTheShards() {
    PublishSettings s =
        PublishSettings.from(options("--ratePerSecond=1000", "--publisherShards=4"));
    assertEquals(250.0, s.ratePerShard());
  }

  @Test
  void aRateProfileAndAScheduleUrlAreCheckedAgainstTheRateAndTheCount() {
    PublishSettings s =
        PublishSettings.from(
            options(
                "--ratePerSecond=1000",
                "--numMessages=3000",
                "--rateProfile=1x:1s,2x:1s",
                "--sendScheduleUrl=http://127.0.0.1:9"));
    assertEquals("1x:1s,2x:1s", s.rateProfile().toString());
    assertEquals("http://127.0.0.1:9", s.sendScheduleUrl());
    assertTrue(
        failure("--ratePerSecond=1000", "--numMessages=10", "--rateProfile=1x:1s,2x:1s")
            .contains("give --numMessages=3000"));
    assertTrue(failure("--numMessages=10", "--rateProfile=1x:1s").contains("--ratePerSecond"));
    assertTrue(
        failure("--rateProfile=fast").startsWith("--rateProfile fast: 'fast' is not a step"));
    assertTrue(failure("--sendScheduleUrl=http://x:1").contains("--ratePerSecond above 0"));
    assertTrue(
        failure("--ratePerSecond=5", "--sendScheduleUrl=file:/etc").contains("http://HOST:PORT"));
  }

  @Test
  void rangesCoverEveryIndexOnceFromTheFirstIndex() {
    List<EventRange> ranges = EventRange.split(100, 10, 3);
    assertEquals(
        List.of(new EventRange(100, 104), new EventRange(104, 107), new EventRange(107, 110)),
        ranges);
    assertEquals(List.of(new EventRange(0, 2)), EventRange.split(0, 2, 1));
    assertTrue(EventRange.split(0, 0, 4).isEmpty());
  }
}
