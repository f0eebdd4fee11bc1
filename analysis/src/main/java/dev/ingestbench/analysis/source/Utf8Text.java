package dev.ingestbench.analysis.source;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Refuses a file that is not UTF-8 before it is parsed, naming the line and byte offset of the
 * first byte that is not: parsers only say "Input length = 1", and a spreadsheet's Latin-1 export
 * would otherwise end the analysis with that.
 */
public final class Utf8Text {
  private static final int CHUNK = 1 << 16;

  private Utf8Text() {}

  /**
   * Throws {@link IllegalArgumentException} naming line and byte offset when {@code file} is not
   * UTF-8.
   */
  public static void require(Path file) throws IOException {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.allocate(CHUNK);
    CharBuffer out = CharBuffer.allocate(CHUNK);
    long consumed = 0;
    long line = 1;
    boolean eof = false;
    try (ReadableByteChannel channel = Files.newByteChannel(file)) {
      while (true) {
        if (!eof && in.hasRemaining() && channel.read(in) < 0) {
          eof = true;
        }
        in.flip();
        CoderResult result = decoder.decode(in, out, eof);
        for (int i = 0; i < in.position(); i++) {
          if (in.get(i) == '\n') {
            line++;
          }
        }
        if (result.isError()) {
          long offset = consumed + in.position();
          String bytes = describe(in, result.length());
          throw new IllegalArgumentException(
              String.format(
                  Locale.ROOT,
                  "%s is not UTF-8: line %,d, byte offset %,d (%s) %s; export it as UTF-8, e.g. iconv -f latin1"
                      + " -t utf-8 %s > %s.utf8",
                  file,
                  line,
                  offset,
                  bytes,
                  result.isMalformed() ? "is not a UTF-8 character" : "cannot be read",
                  file.getFileName(),
                  file.getFileName()));
        }
        consumed += in.position();
        in.compact();
        out.clear();
        if (eof && result.isUnderflow()) {
          return;
        }
      }
    }
  }

  private static String describe(ByteBuffer in, int length) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < length && in.position() + i < in.limit(); i++) {
      s.append(i == 0 ? "" : " ")
          .append(String.format(Locale.ROOT, "0x%02X", in.get(in.position() + i) & 0xff));
    }
    return s.length() == 0 ? "a sequence cut short at the end of the file" : s.toString();
  }
}
