package dev.ingestbench.analysis.document;

import dev.ingestbench.analysis.document.Document.Block;
import dev.ingestbench.analysis.document.Document.Bullets;
import dev.ingestbench.analysis.document.Document.Details;
import dev.ingestbench.analysis.document.Document.Heading;
import dev.ingestbench.analysis.document.Document.Image;
import dev.ingestbench.analysis.document.Document.Paragraph;
import dev.ingestbench.analysis.document.Document.TableBlock;
import java.util.List;

/**
 * Renders a {@link Document} as GitHub-flavoured Markdown: every block followed by one blank line.
 * Another format (HTML) is another writer over the same blocks.
 */
final class MarkdownWriter {
  private MarkdownWriter() {}

  static String write(Document doc) {
    StringBuilder md = new StringBuilder();
    for (Block block : doc.blocks()) {
      write(block, md);
    }
    return md.toString();
  }

  private static void write(Block block, StringBuilder md) {
    if (block instanceof Heading h) {
      md.append("#".repeat(h.level())).append(' ').append(h.text()).append("\n\n");
    } else if (block instanceof Paragraph p) {
      md.append(p.text()).append("\n\n");
    } else if (block instanceof Image i) {
      md.append("![").append(i.alt()).append("](").append(i.file()).append(")\n\n");
    } else if (block instanceof Bullets b) {
      b.items().forEach(item -> md.append("- ").append(item).append('\n'));
      md.append('\n');
    } else if (block instanceof TableBlock t) {
      md.append(table(t.table())).append('\n');
    } else if (block instanceof Details d) {
      md.append("<details><summary>")
          .append(d.summary())
          .append("</summary>\n\n")
          .append(table(d.table()))
          .append("\n</details>\n\n");
    } else {
      throw new IllegalStateException("no Markdown for " + block);
    }
  }

  /** Title line, separator line (its alignment), a line per row. */
  private static String table(Table table) {
    StringBuilder md = new StringBuilder("|");
    table.columns().forEach(c -> md.append(' ').append(c.title()).append(" |"));
    md.append("\n|");
    table.columns().forEach(c -> md.append(separator(c.align())).append('|'));
    md.append('\n');
    for (List<String> row : table.rows()) {
      md.append('|');
      // An empty cell is one space, as a hand-typed table has it.
      row.forEach(cell -> md.append(cell.isEmpty() ? " |" : " " + cell + " |"));
      md.append('\n');
    }
    return md.toString();
  }

  private static String separator(Table.Align align) {
    return switch (align) {
      case LEFT -> ":---";
      case RIGHT -> "---:";
      case NONE -> "---";
    };
  }
}
