package io.kumodo.convoy.sharding.examples.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A table printed as Markdown and written as CSV, with the same columns. */
final class Table {
  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  Table(String... header) {
    this.header = List.of(header);
  }

  void add(Object... cells) {
    List<String> row = new ArrayList<>();
    for (Object c : cells) {
      row.add(format(c));
    }
    rows.add(row);
  }

  static String format(Object c) {
    if (c == null) {
      return "-";
    }
    if (c instanceof Double d) {
      if (d.isNaN()) {
        return "-";
      }
      double a = Math.abs(d);
      return String.format(Locale.ROOT, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f", d);
    }
    return c.toString();
  }

  String markdown() {
    StringBuilder sb = new StringBuilder();
    sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
    sb.append("---|".repeat(header.size())).append('\n');
    for (List<String> row : rows) {
      sb.append("| ").append(String.join(" | ", row)).append(" |\n");
    }
    return sb.toString();
  }

  void writeCsv(Path file) throws IOException {
    StringBuilder sb = new StringBuilder(String.join(",", header)).append('\n');
    for (List<String> row : rows) {
      List<String> quoted = new ArrayList<>();
      for (String c : row) {
        quoted.add(c.contains(",") || c.contains("\"") ? "\"" + c.replace("\"", "\"\"") + "\"" : c);
      }
      sb.append(String.join(",", quoted)).append('\n');
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, sb.toString());
  }
}
