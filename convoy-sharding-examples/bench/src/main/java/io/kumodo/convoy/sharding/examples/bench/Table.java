/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A table printed as Markdown and written as CSV, with the same columns. */
public final class Table {
  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  /** A table with these column names. */
  public Table(String... header) {
    this.header = List.of(header);
  }

  /** Adds a row; a null or NaN cell prints as {@code -}. */
  public void add(Object... cells) {
    List<String> row = new ArrayList<>();
    for (Object c : cells) {
      row.add(format(c));
    }
    rows.add(row);
  }

  /** A cell as printed: numbers to about three significant digits. */
  public static String format(Object c) {
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

  /** The rows added so far, each as its formatted cells. */
  public List<List<String>> rows() {
    return java.util.Collections.unmodifiableList(rows);
  }

  /** The table as Markdown. */
  public String markdown() {
    StringBuilder sb = new StringBuilder();
    sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
    sb.append("---|".repeat(header.size())).append('\n');
    for (List<String> row : rows) {
      sb.append("| ").append(String.join(" | ", row)).append(" |\n");
    }
    return sb.toString();
  }

  /** Writes the table as CSV to {@code file}, creating its directory. */
  public void writeCsv(Path file) throws IOException {
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
