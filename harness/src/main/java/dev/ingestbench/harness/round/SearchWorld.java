package dev.ingestbench.harness.round;

import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.SendSchedule;
import dev.ingestbench.contracts.WindowLatency;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.process.BigQueryEmulatorRest;
import dev.ingestbench.harness.process.MachineCpu;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.source.EventSender;
import dev.ingestbench.harness.source.PacedPublisher;
import dev.ingestbench.harness.source.RatedPublisher;
import dev.ingestbench.harness.staged.Ticker;
import java.io.IOException;

/**
 * What the max-rate search waits on, drives and reads besides its own rules: the clock, the
 * publisher it paces, the local BigQuery's counts and latencies, and processes' CPU time. A round's
 * is this machine's ({@link #system}); the search's tests give it a simulated pipeline on a clock
 * that jumps ahead, so every rule is tried in milliseconds.
 */
interface SearchWorld {
  Ticker ticker();

  /** The publisher to pace, sending with {@code sender}. */
  RatedPublisher publisher(
      EventSender sender, TaxiRideGenerator generator, PacedPublisher.ScheduleSink schedule);

  /** The local BigQuery at {@code address}, as the search reads it. */
  Sink sink(BigQueryEmulatorProcess.Address address);

  /** A process's CPU time so far, in seconds; 0 or less when it is not known. */
  double cpuSeconds(long pid);

  /** The whole machine's CPU counters now. */
  MachineCpu machine();

  /**
   * What the search reads of the local BigQuery: every job's counts, each job's latency in a
   * window, and where the publisher's schedule goes.
   */
  interface Sink extends PacedPublisher.ScheduleSink {
    EmulatorStatus status() throws IOException;

    WindowLatency windowLatency(String job, long fromMs, long toMs) throws IOException;
  }

  /** This machine: the system clock, the paced publisher, the local BigQuery's REST API. */
  static SearchWorld system() {
    return new SearchWorld() {
      @Override
      public Ticker ticker() {
        return Ticker.system();
      }

      @Override
      public RatedPublisher publisher(
          EventSender sender, TaxiRideGenerator generator, PacedPublisher.ScheduleSink schedule) {
        return new PacedPublisher(sender, generator, schedule);
      }

      @Override
      public Sink sink(BigQueryEmulatorProcess.Address address) {
        BigQueryEmulatorRest rest = new BigQueryEmulatorRest(address.rest());
        return new Sink() {
          @Override
          public EmulatorStatus status() throws IOException {
            return rest.status();
          }

          @Override
          public WindowLatency windowLatency(String job, long fromMs, long toMs)
              throws IOException {
            return rest.windowLatency(job, fromMs, toMs);
          }

          @Override
          public void add(SendSchedule step) throws IOException {
            rest.schedule(step);
          }
        };
      }

      @Override
      public double cpuSeconds(long pid) {
        return ProcessCpuSampler.cpuSeconds(pid);
      }

      @Override
      public MachineCpu machine() {
        return MachineCpu.now();
      }
    };
  }
}
