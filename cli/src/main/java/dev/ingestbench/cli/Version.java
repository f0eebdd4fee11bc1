package dev.ingestbench.cli;

import picocli.CommandLine;

/** Reports the build's version from the jar manifest (or "development" when run from classes). */
final class Version implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = Version.class.getPackage().getImplementationVersion();
    return new String[] {"ingestbench " + (version == null ? "development build" : version)};
  }
}
