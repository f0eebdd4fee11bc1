package dev.ingestbench.dataflow;

import java.util.List;
import java.util.regex.Pattern;

/**
 * One word of a POSIX shell line, as {@code --dry-run} prints commands for a user to paste: left as
 * it is when it holds only characters no shell treats specially, else single-quoted.
 */
final class ShellQuote {
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

  private ShellQuote() {}

  static String word(String word) {
    if (!word.isEmpty() && PLAIN.matcher(word).matches()) {
      return word;
    }
    return "'" + word.replace("'", "'\\''") + "'";
  }

  static String line(List<String> words) {
    return String.join(" ", words.stream().map(ShellQuote::word).toList());
  }
}
