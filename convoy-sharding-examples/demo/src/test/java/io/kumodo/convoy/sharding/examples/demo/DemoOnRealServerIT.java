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
import org.junit.jupiter.api.Test;

/**
 * {@code demo --real-api-server} narrates the whole scenario on etcd and kube-apiserver, then
 * removes them; SIGTERM in the middle of it also removes them.
 */
class DemoOnRealServerIT {
  private Process demo;

  @org.junit.jupiter.api.AfterEach
  void killLeftovers() {
    if (demo != null) {
      demo.descendants().forEach(ProcessHandle::destroyForcibly);
      demo.destroyForcibly();
    }
  }
  private static final Pattern SERVER_LINE = Pattern.compile(
      "real API server on https://127\\.0\\.0\\.1:\\d+; in another terminal: kubectl --kubeconfig (\\S+) get leases "
          + "-n convoy-system");

  @Test
  void demoOnTheRealServerRunsTheScenarioToTheEndWithEveryShardOwnedAndNoOverlap() throws Exception {
    RealBinaries.orSkip();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int code = new DemoCommand().run(List.of("--real-api-server", "--lease-duration", "2s", "--lease-renew-interval",
        "500ms", "--clusters", "4", "--no-color"), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));

    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(code).as(text + err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(text)
        .contains("created 4 Clusters and 12 Releases in namespace demo")
        .contains("summary:")
        .contains("every shard owned at the end: yes")
        .contains("no shard had two owners")
        .doesNotContain("TIMED OUT")
        .contains("graceful stop", "crash", "join");
    Matcher line = SERVER_LINE.matcher(text);
    assertThat(line.find()).as(text).isTrue();
    assertThat(Path.of(line.group(1)).getParent()).as("the server's directory, deleted at the end").doesNotExist();
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
