package dev.ingestbench.analysis.cost;

/**
 * What a stretch of Dataflow work uses, whatever it came from (a plan's month, a round's run, an
 * hour at a round's rate): what every cost line is computed from.
 *
 * @param what the stretch, as a line's note says it: "a month", "the run", "an hour"
 * @param hours how long the workers run
 * @param vcpus the workers' vCPUs over those hours
 * @param vcpusNote how {@code vcpus} was reached
 * @param vcpusPerWorker the machine type's
 * @param gbPerVcpu the machine type's memory per vCPU
 * @param machineType e.g. n2-highcpu-8
 * @param readBytes what every job read from the source together
 * @param publishedBytes what was published to the source (once, whatever the jobs)
 * @param subscriptions the jobs' subscriptions (or consumer groups), each delivering every message
 * @param writtenBytes what the jobs wrote into the Storage Write API together
 * @param exactlyOnce the write method, for Streaming Engine
 * @param pubsub the source is Pub/Sub (else Kafka)
 */
public record Workload(
    String what,
    double hours,
    double vcpus,
    String vcpusNote,
    int vcpusPerWorker,
    double gbPerVcpu,
    String machineType,
    double readBytes,
    double publishedBytes,
    int subscriptions,
    double writtenBytes,
    boolean exactlyOnce,
    boolean pubsub) {

  /** The workers, as many as the vCPUs fill (fractional: billed per second of each). */
  public double workers() {
    return vcpus / vcpusPerWorker;
  }
}
