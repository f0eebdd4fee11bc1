package dev.ingestbench.analysis.cost;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A price file: the project's own ({@link #builtIn}, read from its sources with their dates), or a
 * user's of the same shape ({@code --prices FILE}: negotiated prices, another region). Every line
 * is checked as it is read; a file that is not whole is refused naming the line and what is
 * missing, before any cost is computed.
 */
public final class PriceFile {
  static final String BUILT_IN = "gcp-prices.csv";

  static final List<String> COLUMNS =
      List.of(
          "sku",
          "unit",
          "usd",
          "free_per_month",
          "region",
          "source",
          "source_date",
          "read_date",
          "status");

  private final String name;
  private final List<Price> prices;

  private PriceFile(String name, List<Price> prices) {
    this.name = name;
    this.prices = List.copyOf(prices);
  }

  /** The project's prices (analysis/src/main/resources/.../cost/gcp-prices.csv), read once. */
  public static PriceFile builtIn() {
    return BuiltIn.FILE;
  }

  /** Read when first asked for: a report prices many lines and stages from it. */
  private static final class BuiltIn {
    static final PriceFile FILE = load();
  }

  private static PriceFile load() {
    try (InputStream in = PriceFile.class.getResourceAsStream(BUILT_IN)) {
      if (in == null) {
        throw new IllegalStateException(BUILT_IN + " is missing from the analysis jar");
      }
      return parse(
          "the built-in " + BUILT_IN, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code file} ({@code --prices}); refused with the line and the fix when it is not whole. */
  public static PriceFile read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(
          "--prices " + file + " is not a file: give a CSV of the shape docs/cost.md shows");
    }
    return parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
  }

  /** The file's name, as a cost says where its prices came from. */
  public String name() {
    return name;
  }

  public List<Price> prices() {
    return prices;
  }

  /**
   * {@code sku}'s price in {@code region}, else its price for every region, if the file has one.
   */
  public Optional<Price> find(String sku, String region) {
    Optional<Price> own =
        prices.stream().filter(p -> p.sku().equals(sku) && p.region().equals(region)).findFirst();
    return own.isPresent()
        ? own
        : prices.stream()
            .filter(p -> p.sku().equals(sku) && p.region().equals(Price.EVERY_REGION))
            .findFirst();
  }

  /**
   * {@code sku}'s price in {@code region}; refused, naming the regions the file has and how to give
   * a price, when it has none (never another region's).
   */
  public Price require(String sku, String region) {
    return find(sku, region)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    name
                        + " has no price for "
                        + sku
                        + " in "
                        + region
                        + " (its regions: "
                        + String.join(", ", regions())
                        + "): choose one of them with --region, or give a price file with a line"
                        + " for "
                        + sku
                        + " in "
                        + region
                        + " (--prices FILE, shaped as docs/cost.md shows)"));
  }

  /** The regions any line names, {@code *} left out. */
  public List<String> regions() {
    TreeSet<String> regions = new TreeSet<>();
    prices.forEach(p -> regions.add(p.region()));
    regions.remove(Price.EVERY_REGION);
    return List.copyOf(regions);
  }

  static PriceFile parse(String name, String text) {
    List<Price> prices = new ArrayList<>();
    boolean header = false;
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      int lineNo = i + 1;
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (!header) {
        if (!List.of(line.split(",", -1)).equals(COLUMNS)) {
          throw refused(
              name,
              lineNo,
              "the header must be "
                  + String.join(",", COLUMNS)
                  + " (the first line not a comment)");
        }
        header = true;
        continue;
      }
      Price p = price(name, lineNo, line.split(",", -1));
      for (Price earlier : prices) {
        if (earlier.sku().equals(p.sku()) && earlier.region().equals(p.region())) {
          throw refused(
              name,
              lineNo,
              p.sku() + " in " + p.region() + " is priced twice: keep one line of the two");
        }
      }
      prices.add(p);
    }
    if (!header) {
      throw refused(name, lines.length, "no header line: " + String.join(",", COLUMNS));
    }
    return new PriceFile(name, prices);
  }

  private static Price price(String name, int line, String[] f) {
    if (f.length != COLUMNS.size()) {
      throw refused(
          name,
          line,
          f.length
              + " fields where the header has "
              + COLUMNS.size()
              + " ("
              + String.join(",", COLUMNS)
              + "); a comma inside a field is not allowed");
    }
    for (String column : List.of("sku", "unit", "usd", "region", "source", "read_date", "status")) {
      if (f[COLUMNS.indexOf(column)].isBlank()) {
        throw refused(name, line, "no " + column + ": every line needs one");
      }
    }
    String unit = f[1].strip();
    PriceUnit u =
        PriceUnit.of(unit)
            .orElseThrow(
                () ->
                    refused(
                        name,
                        line,
                        "unit '" + unit + "' is not known; use one of " + PriceUnit.known()));
    PriceUnit expected = Skus.UNITS.get(f[0].strip());
    if (expected != null && expected != u) {
      throw refused(
          name,
          line,
          f[0].strip()
              + " is priced per "
              + expected.word()
              + ", not per "
              + unit
              + ": convert the price (docs/cost.md lists each SKU's unit)");
    }
    double usd = number(name, line, "usd", f[2]);
    double free = f[3].isBlank() ? 0 : number(name, line, "free_per_month", f[3]);
    String status = f[8].strip();
    if (!status.equals("confirmed") && !status.equals("unconfirmed")) {
      throw refused(name, line, "status '" + status + "' is neither confirmed nor unconfirmed");
    }
    return new Price(
        f[0].strip(),
        u,
        usd,
        free,
        f[4].strip(),
        f[5].strip(),
        f[6].isBlank() ? null : date(name, line, "source_date", f[6]),
        date(name, line, "read_date", f[7]),
        status.equals("confirmed"));
  }

  private static double number(String name, int line, String column, String text) {
    double v;
    try {
      v = Double.parseDouble(text.strip());
    } catch (NumberFormatException e) {
      throw refused(name, line, column + " '" + text + "' is not a number, e.g. 0.069");
    }
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      throw refused(name, line, column + " '" + text + "' is not a number, e.g. 0.069");
    }
    if (v < 0) {
      throw refused(name, line, column + " " + text + " is negative: a price is 0 or more");
    }
    return v;
  }

  private static LocalDate date(String name, int line, String column, String text) {
    try {
      return LocalDate.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw refused(name, line, column + " '" + text + "' is not a date as 2026-11-28");
    }
  }

  private static IllegalArgumentException refused(String name, int line, String what) {
    return new IllegalArgumentException(name + " line " + line + ": " + what);
  }
}
