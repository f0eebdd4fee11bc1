package dev.ingestbench.harness.staged;

import dev.ingestbench.harness.flink.TaskManagerKill;
import dev.ingestbench.harness.process.ChildJvm;
import dev.ingestbench.harness.process.ConsumerKill;
import dev.ingestbench.scenario.PlannedStage;
import dev.ingestbench.scenario.StageFaults;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The faults a stage injects into a local segment's jobs ({@link StageFaults}): its consumers
 * killed and restored from a checkpoint ({@code kill_consumer_at}, {@code crash_every}, a round's
 * {@code --kill-consumer-at} and {@code --crash-every}), and one TaskManager of the Flink cluster
 * killed ({@code kill_taskmanager_at}, {@code --kill-taskmanager-at}). A schedule is its stage's:
 * it begins at the stage's first tick, once its jobs have started, and ends with the stage.
 */
public final class SegmentFaults {

  /** The segment's jobs as the faults see them. */
  public interface Jobs {
    /** The job's running consumer, or null when it is not running in this segment. */
    ChildJvm jvm(String job);

    /** The distinct messages the job has accounted for so far (its progress). */
    long accountedFor(String job);

    /** Where the job's consumer writes its Flink checkpoints, which a restart restores. */
    Path checkpoints(String job);

    /** Starts the job's consumer again, restoring {@code checkpoint}, as its next life. */
    ChildJvm restart(String job, Path checkpoint) throws IOException;

    /** Kills one TaskManager of the cluster and says which; only with a Flink cluster. */
    String killTaskManager() throws Exception;

    /**
     * Stops the job's consumer with a Flink savepoint and starts it again from that savepoint;
     * returns the seconds the stop took.
     */
    double saveAndRestart(String job) throws Exception;

    /** The job's consumer process name ({@code consumer}, or the job's). */
    String processName(String job);
  }

  private final Jobs jobs;
  private final Consumer<String> say;

  /** The prefix of the kills' own lines ({@code round}, {@code run}). */
  private final String voice;

  /** How the kills' lines name a consumer, given its process name. */
  private final Function<String, String> named;

  /** Whether each stage's kills are totalled as it ends (a round says its own total). */
  private final boolean totalPerStage;

  /** The stage whose kill schedule begins at the next tick (once its jobs started), or null. */
  private PlannedStage killing;

  /** The current stage's consumer kills, or null. */
  private ConsumerKill<ChildJvm> kill;

  /** The stage whose schedule {@link #kill} is. */
  private String killingStage;

  /** The jobs {@link #kill} kills, in its order. */
  private List<String> killed = List.of();

  /** Consumer kills of the stages that ended. */
  private int earlierKills;

  /** The current stage's TaskManager kill, or null. */
  private TaskManagerKill taskManagerKill;

  /** The stage whose {@link #taskManagerKill} it is. */
  private PlannedStage taskManagerStage;

  /** {@link #taskManagerKill} has killed. */
  private boolean taskManagerKilled;

  /** The stage whose {@code savepoint_at} is still to come for some of its jobs, or null. */
  private PlannedStage saving;

  /** When {@link #saving}'s schedule began (its first tick, System.nanoTime), or 0 before it. */
  private long savingSince;

  /** The jobs {@link #saving} has stopped with a savepoint and restored. */
  private final java.util.Set<String> saved = new java.util.HashSet<>();

  /** The jobs of {@link #saving} that ended by themselves before their savepoint came. */
  private final java.util.Set<String> ended = new java.util.HashSet<>();

  /**
   * @param voice the prefix of the kills' lines
   * @param named how those lines name a consumer, given its process name
   * @param totalPerStage say each stage's kills as it ends
   */
  public SegmentFaults(
      Jobs jobs,
      Consumer<String> say,
      String voice,
      Function<String, String> named,
      boolean totalPerStage) {
    this.jobs = jobs;
    this.say = say;
    this.voice = voice;
    this.named = named;
    this.totalPerStage = totalPerStage;
  }

  /** Stage {@code st} begins: the previous stage's faults end, its own are armed. */
  public void stageStarting(PlannedStage st) {
    stageEnded();
    killing = st.faults().killsConsumers() ? st : null;
    taskManagerKill =
        st.faults().killsTaskManager()
            ? new TaskManagerKill(st.faults().killTaskManagerAt().toSeconds(), System::nanoTime)
            : null;
    taskManagerStage = st;
    taskManagerKilled = false;
    saving = st.faults().savesAndRestores() ? st : null;
    savingSince = 0;
    saved.clear();
    ended.clear();
  }

  /** The current stage has ended: its schedule is over; says what it did. */
  public void stageEnded() {
    if (taskManagerKill != null && !taskManagerKilled) {
      say.accept(
          "Stage "
              + taskManagerStage.name()
              + " ended before its kill_taskmanager_at came (its running jobs had not all"
              + " written, or not for that long): no TaskManager was killed");
    }
    taskManagerKill = null;
    if (saving != null) {
      say.accept(
          "Stage "
              + saving.name()
              + " ended before every job's savepoint_at came (its time, or a job's first row, had"
              + " not come): "
              + (saved.isEmpty() ? "none was" : String.join(", ", saved) + " only were")
              + " stopped with a savepoint and restored");
      saving = null;
    }
    if (kill != null) {
      earlierKills += kill.kills();
      if (totalPerStage) {
        say.accept(
            "Stage "
                + killingStage
                + ": consumers killed (SIGKILL) and restored from a checkpoint "
                + kill.kills()
                + " time(s) in all");
      }
    }
    kill = null;
  }

  /** Consumers killed and restored so far, every stage's. */
  public int kills() {
    return earlierKills + (kill == null ? 0 : kill.kills());
  }

  /**
   * The TaskManager kill once every running job has written for its time; the consumer kills, whose
   * schedule begins at the stage's first tick.
   */
  public void tick() throws Exception {
    if (taskManagerKill != null && !taskManagerKilled) {
      boolean everyJobWriting = true;
      for (String job : taskManagerStage.running()) {
        everyJobWriting &= jobs.accountedFor(job) > 0;
      }
      taskManagerKilled =
          taskManagerKill.tick(everyJobWriting, () -> say.accept(jobs.killTaskManager()));
    }
    if (saving != null) {
      saveAndRestore();
    }
    if (killing != null) {
      StageFaults f = killing.faults();
      killed = killing.running();
      kill =
          new ConsumerKill<>(
                  f.killConsumerAt() == null ? null : f.killConsumerAt().toSeconds(),
                  f.crashEvery() == null ? null : f.crashEvery().toSeconds(),
                  killed.stream().map(jobs::checkpoints).toList(),
                  (j, life, checkpoint) -> jobs.restart(killed.get(j - 1), checkpoint),
                  j -> jobs.accountedFor(killed.get(j)))
              .speakingAs(voice, named);
      killingStage = killing.name();
      killing = null;
    }
    if (kill != null) {
      List<ChildJvm> consumers = new ArrayList<>();
      for (String job : killed) {
        ChildJvm jvm = jobs.jvm(job);
        if (jvm == null) {
          return; // stopped in this stage: the schedule is over with it
        }
        consumers.add(jvm);
      }
      kill.tick(consumers);
    }
  }

  /**
   * Once the stage has run for its {@code savepoint_at}, each running job that has written is
   * stopped with a savepoint and started again from it, once; a job that has not yet written is
   * taken at a later tick (its savepoint would hold nothing to restore).
   */
  private void saveAndRestore() throws Exception {
    if (savingSince == 0) {
      savingSince = System.nanoTime();
    }
    if (System.nanoTime() - savingSince < saving.faults().savepointAt().toNanos()) {
      return;
    }
    for (String job : saving.running()) {
      ChildJvm jvm = jobs.jvm(job);
      if (!saved.contains(job) && (jvm == null || !jvm.isAlive())) {
        ended.add(job); // it ended (drained, or stopped) before its time: nothing to restore
        continue;
      }
      if (!saved.contains(job) && jobs.accountedFor(job) > 0) {
        long accounted = jobs.accountedFor(job);
        double seconds = jobs.saveAndRestart(job);
        say.accept(
            String.format(
                java.util.Locale.ROOT,
                "Stopped %s with a savepoint (savepoint_at, %,d accounted for) in %.1f s and"
                    + " started it again from it",
                named.apply(jobs.processName(job)),
                accounted,
                seconds));
        saved.add(job);
      }
    }
    if (saving.running().stream().allMatch(j -> saved.contains(j) || ended.contains(j))) {
      saving = null;
    }
  }
}
