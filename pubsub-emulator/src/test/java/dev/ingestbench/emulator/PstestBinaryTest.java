package dev.ingestbench.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The emulator binary cache runs only what it built: the user's own directory, closed to others,
 * hash-checked.
 */
@Tag("e2e")
// A long timeout: it builds pstest with go into a cache of its own, which may take up to 10
// minutes.
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class PstestBinaryTest {

  @Test
  void anExecutablePlantedInTheCacheIsBuiltOverNotRun(@TempDir Path tmp) throws Exception {
    Path cache = tmp.resolve("cache");
    Path binary = PstestBinary.locate(cache);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)));
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(binary.getParent())));
    byte[] built = Files.readAllBytes(binary);
    Files.writeString(binary, "#!/bin/sh\necho planted\n", StandardCharsets.UTF_8);
    assertEquals(binary, PstestBinary.locate(cache));
    assertFalse(
        Files.readString(binary, StandardCharsets.ISO_8859_1).startsWith("#!/bin/sh"),
        "the planted script was replaced");
    assertEquals(built.length, Files.size(binary), "by the binary built from the sources");
  }
}
