package dev.ingestbench.analysis.document;

import java.util.ArrayList;
import java.util.List;

/**
 * A report as data: its blocks in order (headings, paragraphs, images, lists, tables). Markdown is
 * one rendering of it ({@link #markdown()}); every report writer builds one of these instead of
 * appending Markdown by hand, so a table's separator line, a paragraph's spacing and a number's
 * format are written once, here and in {@link Table} and {@link Numbers}.
 */
public final class Document {
  private final List<Block> blocks = new ArrayList<>();

  /** One piece of a document. */
  public sealed interface Block permits Heading, Paragraph, Image, Bullets, TableBlock, Details {}

  /** A heading of {@code level} 1 (the title) to 4. */
  public record Heading(int level, String text) implements Block {}

  /** A paragraph: inline Markdown (emphasis, code) allowed. */
  public record Paragraph(String text) implements Block {}

  /** A chart or picture beside the report. */
  public record Image(String alt, String file) implements Block {}

  /** A bulleted list. */
  public record Bullets(List<String> items) implements Block {}

  /** A table. */
  public record TableBlock(Table table) implements Block {}

  /** A table folded away under a summary line (long per-second listings). */
  public record Details(String summary, Table table) implements Block {}

  public Document heading(int level, String text) {
    if (level < 1 || level > 4) {
      throw new IllegalArgumentException("a heading's level is 1 to 4, not " + level);
    }
    return add(new Heading(level, text));
  }

  public Document paragraph(String text) {
    return add(new Paragraph(text));
  }

  public Document image(String alt, String file) {
    return add(new Image(alt, file));
  }

  public Document bullets(List<String> items) {
    return add(new Bullets(List.copyOf(items)));
  }

  public Document table(Table table) {
    return add(new TableBlock(table));
  }

  public Document details(String summary, Table table) {
    return add(new Details(summary, table));
  }

  /** Every block of {@code other}, in order. */
  public Document append(Document other) {
    blocks.addAll(other.blocks);
    return this;
  }

  public List<Block> blocks() {
    return List.copyOf(blocks);
  }

  private Document add(Block block) {
    blocks.add(block);
    return this;
  }

  /** The document as GitHub-flavoured Markdown ({@link MarkdownWriter}). */
  public String markdown() {
    return MarkdownWriter.write(this);
  }
}
