package dev.ingestbench.contracts;

/**
 * Exit codes of every ingestbench process: the CLI, the pipeline mains and the child JVMs a round
 * starts. The round reads a child's code to tell a usage error from an incomplete run or a crash.
 */
public final class ExitCodes {
  /** Everything asked for was done. */
  public static final int OK = 0;

  /** The run ended but not everything arrived (or duplicates where exactly-once promised none). */
  public static final int INCOMPLETE = 1;

  /** Invalid flags or input: nothing was started. */
  public static final int USAGE = 2;

  /** The run could not be carried out (I/O, a process failed). */
  public static final int FAILED = 3;

  private ExitCodes() {}
}
