package dev.ingestbench.contracts;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * How every ingestbench main ends on an error, the CLI's included: one line naming the command and
 * the problem (no stack trace unless {@code INGESTBENCH_DEBUG} is set) and an {@link ExitCodes}
 * code. Bad input ({@link IllegalArgumentException}) is a usage error; anything else a failure. An
 * {@link Error} (a class missing from the classpath, memory exhausted) is a failure too, with its
 * stack trace: left to escape, it would end only the main thread, and the JVM would keep running
 * with Flink's and gRPC's threads, a process that neither works nor exits.
 */
public final class MainErrors {
  private MainErrors() {}

  /** Runs {@code body} and returns its exit code, or the code of the error it threw. */
  public static int run(String command, Callable<Integer> body) {
    try {
      return body.call();
    } catch (Exception e) {
      return report(command, e, new PrintWriter(System.err, true));
    } catch (Error e) {
      System.err.println(command + ": internal error: " + e);
      e.printStackTrace();
      return ExitCodes.FAILED;
    }
  }

  /** Prints {@code e} as one line for {@code command} and returns its exit code. */
  public static int report(String command, Throwable e, PrintWriter err) {
    err.println(command + ": " + message(e));
    if (System.getenv("INGESTBENCH_DEBUG") != null) {
      e.printStackTrace(err);
    }
    err.flush();
    return exitCode(e);
  }

  private static int exitCode(Throwable e) {
    return e instanceof IllegalArgumentException ? ExitCodes.USAGE : ExitCodes.FAILED;
  }

  /** The message, or the exception's type when it has none (a bare NullPointerException, say). */
  private static String message(Throwable e) {
    return e.getMessage() == null || e.getMessage().isBlank()
        ? e.getClass().getName()
        : e.getMessage();
  }
}
