/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Draws ownership timelines as a hand-written SVG: x is virtual time, one row per shard, the
 * colour is the owner, white is no owner; vertical lines mark the membership events. One panel
 * per timeline, stacked, each with its legend.
 */
public final class SvgTimeline {
  private static final int LEFT = 60;
  private static final int WIDTH = 900;
  private static final int ROW = 9;
  private static final String[] PALETTE = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
      "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e",
      "#a6761d"};

  /** A membership event at virtual time {@code at}, labelled e.g. {@code +pod} or {@code -pod}. */
  public record Marker(long at, String label) {}

  /** One timeline: a title, S, the ownership intervals, the time span and the events. */
  public record Panel(String title, int shards, List<Timeline.Segment> segments, long from, long to,
      List<Marker> markers) {}

  private SvgTimeline() {}

  /** The SVG document of the panels, stacked. */
  public static String render(List<Panel> panels) {
    StringBuilder body = new StringBuilder();
    int y = 10;
    for (Panel p : panels) {
      y = panel(body, p, y) + 30;
    }
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + (LEFT + WIDTH + 20) + "\" height=\"" + y
        + "\" font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        + body + "</svg>\n";
  }

  private static int panel(StringBuilder sb, Panel p, int top) {
    sb.append(text(LEFT, top + 12, p.title(), "font-size=\"13\" font-weight=\"bold\""));
    int y0 = top + 40;
    double span = Math.max(1, p.to() - p.from());
    Map<String, String> colours = new LinkedHashMap<>();
    for (Timeline.Segment s : p.segments()) {
      colours.computeIfAbsent(s.owner(), o -> PALETTE[colours.size() % PALETTE.length]);
    }
    sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
        + "stroke=\"#999\"/>%n", LEFT, y0, WIDTH, p.shards() * ROW));
    for (int s = 0; s < p.shards(); s += Math.max(1, p.shards() / 8)) {
      sb.append(text(LEFT - 6, y0 + s * ROW + ROW - 1, "shard " + s, "text-anchor=\"end\" font-size=\"9\""));
    }
    for (Timeline.Segment s : p.segments()) {
      double x = LEFT + (s.from() - p.from()) / span * WIDTH;
      double w = Math.max(0.5, (s.to() - s.from()) / span * WIDTH);
      sb.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\">"
          + "<title>shard %d: %s, %.2fs to %.2fs</title></rect>%n", x, y0 + s.shard() * ROW, w, ROW - 1,
          colours.get(s.owner()), s.shard(), s.owner(), (s.from() - p.from()) / 1e9, (s.to() - p.from()) / 1e9));
    }
    int bottom = y0 + p.shards() * ROW;
    List<Marker> markers = new ArrayList<>(p.markers());
    for (int i = 0; i < markers.size(); i++) {
      Marker m = markers.get(i);
      double x = LEFT + (m.at() - p.from()) / span * WIDTH;
      sb.append(String.format(Locale.ROOT, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#333\" "
          + "stroke-dasharray=\"2,2\" stroke-width=\"0.6\"><title>%s</title></line>%n", x, y0 - 4, x, bottom,
          escape(m.label() + " at " + String.format(Locale.ROOT, "%.2fs", (m.at() - p.from()) / 1e9))));
      sb.append(text((int) x, y0 - 6 - (i % 2) * 10, m.label().substring(0, 1), "text-anchor=\"middle\" font-size=\"9\""));
    }
    for (int t = 0; t <= 10; t++) {
      int x = LEFT + WIDTH * t / 10;
      sb.append(text(x, bottom + 12, String.format(Locale.ROOT, "%.0fs", span * t / 10 / 1e9),
          "text-anchor=\"middle\" font-size=\"9\""));
    }
    int y = bottom + 28;
    int x = LEFT;
    for (Map.Entry<String, String> e : colours.entrySet()) {
      if (x > LEFT + WIDTH - 200) {
        x = LEFT;
        y += 14;
      }
      sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>%n", x,
          y - 9, e.getValue()));
      sb.append(text(x + 14, y, e.getKey(), "font-size=\"10\""));
      x += 200;
    }
    return y;
  }

  private static String text(int x, int y, String s, String attrs) {
    return "<text x=\"" + x + "\" y=\"" + y + "\" " + attrs + ">" + escape(s) + "</text>\n";
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
