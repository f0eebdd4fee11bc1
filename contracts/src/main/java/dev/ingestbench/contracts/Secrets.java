package dev.ingestbench.contracts;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Keeps secrets out of files and logs: the value of any flag or {@code KEY=VALUE} setting whose
 * name mentions sasl, password, secret, token or credential is replaced before a command line is
 * logged or a round's settings are written ({@code round.json}, {@code summary.json}, a child's
 * log). The processes themselves still get the real values.
 */
public final class Secrets {
  public static final String REDACTED = "<redacted>";
  private static final Pattern SECRET =
      Pattern.compile("(?i).*(sasl|password|passwd|secret|token|credential).*");

  private Secrets() {}

  /** Whether a flag or setting of this name holds a secret. */
  public static boolean isSecret(String name) {
    return SECRET.matcher(name).matches();
  }

  /** Each argument with its secrets replaced ({@link #redact(String)}). */
  public static List<String> redact(List<String> args) {
    return args == null ? null : args.stream().map(Secrets::redact).toList();
  }

  /**
   * One argument with its secrets replaced: {@code --password=x} becomes {@code
   * --password=<redacted>}; in {@code
   * --kafkaConsumerConfig=security.protocol=SASL_SSL;sasl.jaas.config=...} each secret setting's
   * value; a flag that passes another flag on ({@code --consumer-arg=--x=y}) is redacted as that
   * flag.
   */
  public static String redact(String arg) {
    if (arg == null) {
      return null;
    }
    int eq = arg.indexOf('=');
    if (!arg.startsWith("-") || eq < 0) {
      return arg;
    }
    String flag = arg.substring(0, eq);
    String value = arg.substring(eq + 1);
    if (value.startsWith("-")) {
      return flag + "=" + redact(value);
    }
    if (isSecret(flag)) {
      return flag + "=" + REDACTED;
    }
    return value.contains("=") ? flag + "=" + redactSettings(value) : arg;
  }

  /**
   * {@code KEY=VALUE;KEY=VALUE} with each secret value replaced; all of it when it cannot be read.
   */
  private static String redactSettings(String text) {
    Map<String, String> pairs;
    try {
      pairs = KeyValueFlag.parse("", text);
    } catch (IllegalArgumentException notPairs) {
      return isSecret(text) ? REDACTED : text;
    }
    if (pairs.keySet().stream().noneMatch(Secrets::isSecret)) {
      return text;
    }
    StringBuilder out = new StringBuilder();
    pairs.forEach(
        (key, value) ->
            out.append(out.length() == 0 ? "" : ";")
                .append(key)
                .append('=')
                .append(isSecret(key) ? REDACTED : value));
    return out.toString();
  }
}
