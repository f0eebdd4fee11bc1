package dev.ingestbench.pubsub;

import java.util.regex.Pattern;

/** Turns the short or full names users pass into full Pub/Sub resource paths, validating them. */
public final class PubsubPaths {
  private static final Pattern NAME = Pattern.compile("[A-Za-z][-A-Za-z0-9_.~+%]{2,254}");
  private static final Pattern FULL =
      Pattern.compile("projects/[^/]+/(topics|subscriptions)/[A-Za-z][-A-Za-z0-9_.~+%]{2,254}");

  private PubsubPaths() {}

  /** {@code projects/P/topics/NAME} from {@code NAME} or the full path. */
  public static String topic(String project, String flag, String value) {
    return path(project, "topics", flag, value);
  }

  /** {@code projects/P/subscriptions/NAME} from {@code NAME} or the full path. */
  public static String subscription(String project, String flag, String value) {
    return path(project, "subscriptions", flag, value);
  }

  /** The last segment of a full path. */
  public static String shortName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  private static String path(String project, String kind, String flag, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(
          flag
              + " is required: give a name like 'taxi-rides' or projects/PROJECT/"
              + kind
              + "/NAME");
    }
    if (value.startsWith("projects/")) {
      if (!FULL.matcher(value).matches() || !value.contains("/" + kind + "/")) {
        throw new IllegalArgumentException(
            flag
                + "="
                + value
                + " is not a valid path; expected projects/PROJECT/"
                + kind
                + "/NAME");
      }
      return value;
    }
    if (!NAME.matcher(value).matches()) {
      throw new IllegalArgumentException(
          flag
              + "="
              + value
              + " is not a valid Pub/Sub name: 3-255 characters, starting with a letter, of"
              + " letters, digits and - _ . ~ + %");
    }
    if (project == null || project.isBlank()) {
      throw new IllegalArgumentException(
          flag + "=" + value + " is a short name, so --project is required to complete it");
    }
    return "projects/" + project + "/" + kind + "/" + value;
  }
}
