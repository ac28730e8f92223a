/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.examples.cli.LoadAverage;
import io.kumodo.convoy.sharding.kubectl.Flags;
import io.kumodo.convoy.sharding.kubectl.ParsedFlags;
import io.kumodo.convoy.sharding.examples.bench.sim.Change;
import io.kumodo.convoy.sharding.examples.bench.sim.MoveStudy;
import io.kumodo.convoy.sharding.examples.bench.sim.RollingPicture;
import io.kumodo.convoy.sharding.examples.bench.sim.ScaleRow;
import io.kumodo.convoy.sharding.examples.bench.sim.ScaleRun;
import io.kumodo.convoy.sharding.examples.bench.sim.SvgTimeline;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The scale simulator as one command: the R x S grid per assignment (cold-start convergence,
 * steady-state lease writes against the minimum R per renew interval, CPU per tick, heap per
 * coordinator, shards moved and time to converge after a join, a graceful leave, a crash and a
 * rolling update), the join/leave move study over random member sets, and the SVG timeline of a
 * rolling update. Writes {@code scale.csv}, {@code moves.csv} and {@code rolling-update.svg} to
 * {@code --out}.
 *
 * <pre>java -cp convoy-sharding-examples/bench/target/convoy-bench.jar io.kumodo.convoy.sharding.examples.bench.ScaleBench</pre>
 */
public final class ScaleBench {
  private static final Flags FLAGS = new Flags("ScaleBench [flags]")
      .value("replicas", "N,N", "replica counts R of the grid (default 3,10,30,100,300,1000)")
      .value("shards", "N,N", "shard counts S of the grid (default 32,256,1024,4096)")
      .value("strategies", "NAME,NAME", "assignments (default modulo,balanced)")
      .value("rolling-max", "N", "the most replicas a rolling update runs on (default 30)")
      .value("budget", "N", "seconds of wall time per cell; 0: no limit (default 30)")
      .value("lease", "D", "lease duration (default 30s)")
      .value("renew", "D", "renew interval (default 10s)")
      .value("objects", "N", "objects per shard (default 100)")
      .value("sets", "N", "random member sets per cell of the move study (default 10)")
      .value("study-shards", "N,N", "shard counts of the move study (default 32,128,256,1024)")
      .value("study-replicas", "MIN,MAX", "replica range of the move study (default 2,30)")
      .value("seed", "N", "seed of the random choices (default 1)")
      .value("out", "DIR", "where scale.csv, moves.csv and rolling-update.svg go (default "
          + "convoy-sharding-examples/bench/target, else target)");

  private ScaleBench() {}

  /** Runs the grid, the study and the picture; prints the tables. */
  public static void main(String[] argv) throws Exception {
    int code = BenchCommand.main("ScaleBench", FLAGS, argv, () -> run(argv));
    if (code != 0) {
      System.exit(code);
    }
  }

  private static void run(String[] argv) throws Exception {
    ParsedFlags args = BenchCommand.parse(FLAGS, argv);
    int max = BenchCommand.MAX;
    List<Integer> replicas = args.intList("replicas", "3,10,30,100,300,1000", 1, max);
    List<Integer> shards = args.intList("shards", "32,256,1024,4096", 1, max);
    List<String> strategies = args.list("strategies", "modulo,balanced");
    int rollingMax = args.intValue("rolling-max", 30, 0, max);
    int budget = args.intValue("budget", 30, 0, max);
    Duration lease = args.duration("lease", "30s");
    Duration renew = args.duration("renew", "10s");
    int objects = args.intValue("objects", 100, 0, max);
    long seed = args.intValue("seed", 1, Integer.MIN_VALUE, max);
    Path out = Path.of(args.value("out", Files.isDirectory(Path.of("convoy-sharding-examples/bench/target"))
        ? "convoy-sharding-examples/bench/target" : "target"));
    long start = System.nanoTime();

    System.out.printf("scale grid: lease %s, renew %s, %d objects per shard, budget %d s per cell, %d cores, load "
        + "average %s%n", lease, renew, objects, budget, Runtime.getRuntime().availableProcessors(), LoadAverage.now());
    for (String name : strategies) { // warm up the JIT so that the first cells' CPU and heap are not skewed
      new ScaleRun(Assignment.named(name), 10, 256, lease, renew, objects, true, 0, seed).run();
    }
    Table grid = gridTable();
    for (String name : strategies) {
      Assignment assignment = Assignment.named(name);
      List<int[]> over = new ArrayList<>();
      for (int s : shards) {
        for (int r : replicas) {
          ScaleRow row;
          if (over.stream().anyMatch(c -> r >= c[0] && s >= c[1])) {
            double nan = Double.NaN;
            row = new ScaleRow(name, r, s, nan, nan, nan, nan, nan, nan, nan, r / (renew.toNanos() / 1e9), nan, nan,
                nan, nan, null, null, null, null, 0, "skipped: a smaller cell exceeded the budget");
          } else {
            row = new ScaleRun(assignment, r, s, lease, renew, objects, r <= rollingMax, budget,
                seed + 31L * r + s).run();
            System.out.println(Table.format(row.wallSeconds()) + " s: " + name + " R=" + r + " S=" + s
                + (row.note().isEmpty() ? "" : " (" + row.note() + ")") + "; load average " + LoadAverage.now());
            if (!row.note().isEmpty()) {
              over.add(new int[] {r, s});
            }
          }
          addRow(grid, row);
        }
      }
    }
    System.out.println();
    System.out.println(grid.markdown());
    grid.writeCsv(out.resolve("scale.csv"));

    Table study = moveStudy(strategies, args.intList("study-shards", "32,128,256,1024", 1, max),
        args.intList("study-replicas", "2,30", 1, max), args.intValue("sets", 10, 1, max), new Random(seed));
    study.writeCsv(out.resolve("moves.csv"));

    List<SvgTimeline.Panel> panels = new ArrayList<>();
    for (String name : strategies) {
      panels.add(RollingPicture.run(Assignment.named(name), 4, 32, lease, renew, seed));
    }
    Files.writeString(out.resolve("rolling-update.svg"), SvgTimeline.render(panels));
    System.out.printf("%nwrote %s, %s, %s in %.0f s%n", out.resolve("scale.csv"), out.resolve("moves.csv"),
        out.resolve("rolling-update.svg"), (System.nanoTime() - start) / 1e9);
  }

  private static Table gridTable() {
    return new Table("strategy", "R", "S", "converge s", "ticks/replica", "converge wall s", "cold CPU us/tick (own)",
        "cold watch us/tick", "writes/s", "writes/interval", "min writes/s (R)", "x min", "CPU us/tick (own)",
        "watch us/replica/interval", "list us/tick", "heap KB/coordinator",
        "join moved", "join min", "join x min", "join objects", "join s", "leave moved", "leave min", "leave x min",
        "leave objects", "leave s", "crash moved", "crash s", "rolling moved", "rolling x S", "rolling objects",
        "wall s", "note");
  }

  private static void addRow(Table t, ScaleRow r) {
    Change j = r.join();
    Change l = r.leave();
    Change c = r.crash();
    Change u = r.rolling();
    t.add(r.strategy(), r.replicas(), r.shards(), r.convergeSeconds(), r.convergeTicks(), r.convergeWallSeconds(),
        r.coldCpuMicrosPerTick(), r.coldWatchMicrosPerTick(), r.writesPerSecond(), r.writesPerInterval(),
        r.minWritesPerSecond(), r.writeRatio(), r.cpuMicrosPerTick(), r.watchMicrosPerReplicaInterval(),
        r.listMicrosPerTick(),
        r.heapKbPerCoordinator(), j == null ? null : j.moved(), j == null ? null : j.minimum(),
        j == null ? null : j.ratio(), j == null ? null : j.objects(), j == null ? null : j.seconds(),
        l == null ? null : l.moved(), l == null ? null : l.minimum(), l == null ? null : l.ratio(),
        l == null ? null : l.objects(), l == null ? null : l.seconds(), c == null ? null : c.moved(),
        c == null ? null : c.seconds(), u == null ? null : u.moved(), u == null ? null : u.ratio(),
        u == null ? null : u.objects(), r.wallSeconds(), r.note().isEmpty() ? null : r.note());
  }

  /** Moves per join and leave over random member sets: a summary per (strategy, S), all N in the CSV. */
  private static Table moveStudy(List<String> strategies, List<Integer> shards, List<Integer> nRange, int sets,
      Random random) {
    Table detail = new Table("strategy", "S", "N", "sets", "join x min mean", "join x min max", "leave x min mean",
        "leave x min max", "join moved/S", "leave moved/S");
    Table summary = new Table("strategy", "S", "N", "member sets", "join x min mean", "join x min max",
        "leave x min mean", "leave x min max", "join moved/S", "leave moved/S");
    for (String name : strategies) {
      for (int s : shards) {
        double jm = 0;
        double jx = 0;
        double lm = 0;
        double lx = 0;
        double jf = 0;
        double lf = 0;
        int cells = 0;
        for (int n = nRange.get(0); n <= nRange.get(1); n++) {
          MoveStudy.Cell c = MoveStudy.run(Assignment.named(name), s, n, sets, random);
          detail.add(name, s, n, sets, c.joinMean(), c.joinMax(), c.leaveMean(), c.leaveMax(), c.joinMovedFraction(),
              c.leaveMovedFraction());
          jm += c.joinMean();
          jx = Math.max(jx, c.joinMax());
          lm += c.leaveMean();
          lx = Math.max(lx, c.leaveMax());
          jf += c.joinMovedFraction();
          lf += c.leaveMovedFraction();
          cells++;
        }
        summary.add(name, s, nRange.get(0) + ".." + nRange.get(1), cells * sets, jm / cells, jx, lm / cells, lx,
            jf / cells, lf / cells);
      }
    }
    System.out.println("shards moved by one join / one leave, as a multiple of the minimum:");
    System.out.println(summary.markdown());
    return detail;
  }
}
