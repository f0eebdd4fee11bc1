package dev.ingestbench.cli.scenario;

import java.util.Locale;

/** The progress lines of {@code ingestbench run}, one prefix for every target. */
public final class RunLog {
  private RunLog() {}

  public static void say(String format, Object... args) {
    System.out.println("[run] " + String.format(Locale.ROOT, format, args));
  }
}
