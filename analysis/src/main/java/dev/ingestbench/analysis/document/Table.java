package dev.ingestbench.analysis.document;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A table of a report: titled, aligned columns and rows of cells. Numbers are right-aligned and
 * text left-aligned by the column's {@link Align}, so no writer types a separator line.
 */
public final class Table {
  /** How a column's cells line up. */
  public enum Align {
    /** Text. */
    LEFT,
    /** Numbers. */
    RIGHT,
    /** The renderer's default. */
    NONE
  }

  /** A column: its title and alignment. */
  public record Column(String title, Align align) {
    public static Column text(String title) {
      return new Column(title, Align.LEFT);
    }

    public static Column number(String title) {
      return new Column(title, Align.RIGHT);
    }

    public static Column plain(String title) {
      return new Column(title, Align.NONE);
    }
  }

  private final List<Column> columns;
  private final List<List<String>> rows = new ArrayList<>();

  private Table(List<Column> columns) {
    this.columns = List.copyOf(columns);
  }

  public static Table of(Column... columns) {
    return new Table(List.of(columns));
  }

  /** Adds a row; it must have one cell per column. */
  public Table row(String... cells) {
    if (cells.length != columns.size()) {
      throw new IllegalArgumentException(
          "a row of " + cells.length + " cells in a table of " + columns.size() + " columns");
    }
    rows.add(Arrays.stream(cells).map(String::valueOf).toList());
    return this;
  }

  public List<Column> columns() {
    return columns;
  }

  public List<List<String>> rows() {
    return List.copyOf(rows);
  }
}
