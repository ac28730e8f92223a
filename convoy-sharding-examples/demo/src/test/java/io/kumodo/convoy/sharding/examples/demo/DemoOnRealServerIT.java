/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kumodo.convoy.sharding.examples.kube.RealBinaries;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code demo --real-api-server} narrates the whole scenario on etcd and kube-apiserver, then
 * removes them; at the end of the run, {@code status} against its server shows every shard owned
 * by the right replica. SIGTERM in the middle of it also removes them.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
class DemoOnRealServerIT {
  private Process demo;

  @org.junit.jupiter.api.AfterEach
  void killLeftovers() {
    if (demo != null) {
      demo.descendants().forEach(ProcessHandle::destroyForcibly);
      demo.destroyForcibly();
    }
  }
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Pattern SERVER_LINE = Pattern.compile(
      "real API server on https://127\\.0\\.0\\.1:\\d+; in another terminal: kubectl --kubeconfig (\\S+) get leases "
          + "-n convoy-system");

  @Test
  void demoOnTheRealServerRunsTheScenarioToTheEndWithEveryShardOwnedAndNoOverlapAndStatusShowsTheOwners()
      throws Exception {
    String text = runToTheEnd();
    assertThat(text)
        .contains("created 4 Clusters and 12 Releases in namespace demo")
        .contains("summary:")
        .contains("every shard owned at the end: yes")
        .containsPattern("no shard had two owners in \\d+ checks: yes")
        .doesNotContain("TIMED OUT")
        .contains("graceful stop", "crash", "join");
  }

  @Test
  void withShardByUidEachReplicaCachesOnlyItsRangesServedByTheServerAndTheCachesAreDisjoint() throws Exception {
    String text = runToTheEnd("--shard-by", "uid");
    assertThat(text)
        .contains("every shard owned at the end: yes")
        .containsPattern("no shard had two owners in \\d+ checks: yes")
        .doesNotContain("TIMED OUT", "does not apply shard selectors", "NOT disjoint")
        .contains("caches: disjoint, 16 of 16 objects cached in all");
    // After each phase a line per running replica: with two or three running, each caches only its
    // ranges' objects, never all of them (the converge, graceful stop and join phases).
    Pattern cache = Pattern.compile("cache (cm-\\w): shards [0-9,-]+; (\\d+) of 16 objects cached, (\\d+) watch "
        + "events received$");
    List<List<Integer>> phases = new java.util.ArrayList<>();
    List<Integer> phase = new java.util.ArrayList<>();
    for (String line : text.lines().toList()) {
      Matcher m = cache.matcher(line);
      if (m.find()) {
        phase.add(Integer.parseInt(m.group(2)));
      } else if (line.contains("] caches: ")) {
        phases.add(phase);
        phase = new java.util.ArrayList<>();
      }
    }
    assertThat(phases).as(text).extracting(List::size).containsExactly(3, 2, 1, 2);
    phases.stream().filter(p -> p.size() > 1).flatMap(List::stream)
        .forEach(cached -> assertThat(cached).as(text).isLessThan(16));
  }

  /**
   * Runs {@code demo --real-api-server} with short timings; asserts exit code 0,
   * that the server's directory is gone at the end, and what {@code status} showed against the
   * demo's server at the end of its scenario ({@link StatusAtTheEnd}); returns the demo's output.
   */
  private static String runToTheEnd(String... more) throws Exception {
    RealBinaries.orSkip();
    StatusAtTheEnd status = new StatusAtTheEnd();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> args = new java.util.ArrayList<>(List.of("--real-api-server", "--lease-duration", "2s",
        "--lease-renew-interval", "500ms", "--clusters", "4", "--no-color"));
    args.addAll(List.of(more));

    int code = new DemoCommand().run(args, new PrintStream(status, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));

    String text = status.text();
    assertThat(code).as(text + err.toString(StandardCharsets.UTF_8)).isZero();
    Matcher line = SERVER_LINE.matcher(text);
    assertThat(line.find()).as(text).isTrue();
    assertThat(Path.of(line.group(1)).getParent()).as("the server's directory, deleted at the end").doesNotExist();
    status.assertShowedTheOwners(text);
    return text;
  }

  /**
   * The demo's output; when the demo prints that every shard is owned at the end (its replicas
   * cm-a and cm-d running, cm-c stopped, cm-b crashed), it holds the demo there, on the demo's own
   * thread, for two lease durations (so a shard shows owned only if its owner renewed its lease
   * since) and runs {@code status --kubeconfig} against the demo's server; the demo then goes on
   * and stops.
   */
  private static final class StatusAtTheEnd extends ByteArrayOutputStream {
    private int lineStart;
    private int code = -1;
    private String table = "";
    private Throwable failure;

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      super.write(b, off, len);
      for (int i = lineStart; i < count; i++) {
        if (buf[i] == '\n') {
          String line = new String(buf, lineStart, i - lineStart, StandardCharsets.UTF_8);
          lineStart = i + 1;
          if (line.strip().equals("every shard owned at the end: yes")) {
            runStatus();
          }
        }
      }
    }

    @Override
    public synchronized void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    String text() {
      return toString(StandardCharsets.UTF_8);
    }

    private void runStatus() {
      try {
        Matcher server = SERVER_LINE.matcher(text());
        if (!server.find()) {
          throw new AssertionError("no server line before the end: " + text());
        }
        await().pollDelay(LEASE.multipliedBy(2)).atMost(LEASE.multipliedBy(3)).until(() -> true);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        code = new StatusCommand().run(List.of("--kubeconfig", server.group(1), "--shards", "12"),
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        table = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
      } catch (Throwable e) {
        failure = e;
      }
    }

    /**
     * The status table showed every shard owned by the replica the i mod N rule names over the
     * running cm-a and cm-d (even shards cm-a, odd ones cm-d) and both members live.
     */
    void assertShowedTheOwners(String demo) {
      assertThat(failure).as("running status at the end").isNull();
      assertThat(code).as("status's exit code; the demo printed:%n%s%nstatus printed:%n%s", demo, table).isZero();
      List<String> lines = table.lines().toList();
      assertThat(lines).as(table).contains("12 of 12 shards owned");
      for (int shard = 0; shard < 12; shard++) {
        String row = "^" + shard + "\\s+" + (shard % 2 == 0 ? "cm-a" : "cm-d") + "\\s+\\S+\\s+\\d+\\s+owned$";
        assertThat(lines).as("shard %d in%n%s", shard, table).anySatisfy(l -> assertThat(l).matches(row));
      }
      for (String member : List.of("cm-a", "cm-d")) {
        assertThat(lines).as("member %s in%n%s", member, table)
            .anySatisfy(l -> assertThat(l).matches("^" + member + "\\s+\\S+\\s+live\\s.*"));
      }
    }
  }

  @Test
  void sigtermInTheMiddleOfTheDemoStopsEtcdAndKubeApiServerAndDeletesTheirDirectory() throws Exception {
    RealBinaries.orSkip();
    Path log = Path.of("target", "real-api-server-logs", "demo.out");
    Files.createDirectories(log.getParent());
    demo = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-XX:TieredStopAtLevel=1", "-jar", Path.of("target", "convoy-demo.jar").toString(), "demo",
        "--real-api-server", "--no-color").redirectErrorStream(true).redirectOutput(log.toFile()).start();
    await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(200))
        .until(() -> Files.readString(log).contains("cm-b started") || !demo.isAlive());
    Matcher line = SERVER_LINE.matcher(Files.readString(log));
    assertThat(line.find()).as("%s", Files.readString(log)).isTrue();
    Path dir = Path.of(line.group(1)).getParent();
    List<ProcessHandle> children = demo.descendants().toList();
    assertThat(children).as("etcd and kube-apiserver").hasSize(2);
    assertThat(dir).isDirectory();

    demo.destroy(); // SIGTERM

    assertThat(demo.waitFor(90, TimeUnit.SECONDS)).isTrue();
    assertThat(children).noneMatch(ProcessHandle::isAlive);
    assertThat(dir).doesNotExist();
  }
}
