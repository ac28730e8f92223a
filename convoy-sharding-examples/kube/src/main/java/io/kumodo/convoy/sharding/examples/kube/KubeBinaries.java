/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * Finds the {@code etcd}, {@code kube-apiserver} and {@code kubectl} binaries that
 * {@code convoy-sharding-examples/kube/build.sh} builds, building them on first use.
 *
 * <p>In order: the directory named by the system property {@value #BIN_PROPERTY} or the
 * environment variable {@value #BIN_ENV}; else the build script (system property
 * {@value #SCRIPT_PROPERTY}, or {@code kube/build.sh} found from the working directory), which
 * prints the cache directory and builds into it when the pinned versions are not built yet; else
 * the newest complete directory in the cache {@code ~/.cache/convoy-sharding/kube}.
 * {@link #locateBuilt()}, for the demo commands, never builds: it runs the script with
 * {@code --check}.
 */
public final class KubeBinaries {
  /** The system property naming a directory that holds the three binaries. */
  public static final String BIN_PROPERTY = "convoy.kube.bin";
  /** The environment variable naming a directory that holds the three binaries. */
  public static final String BIN_ENV = "CONVOY_KUBE_BIN";
  /** The system property naming the build script. */
  public static final String SCRIPT_PROPERTY = "convoy.kube.build-script";
  /** The exit code of the build script when no Go toolchain is on the PATH. */
  static final int NO_GO = 3;
  /** The exit code of {@code build.sh --check} when the binaries are not built. */
  static final int NOT_BUILT = 4;
  /** How to build the binaries, from the root of the source tree. */
  public static final String BUILD_COMMAND = "bash convoy-sharding-examples/kube/build.sh";

  private static final List<String> NAMES = List.of("etcd", "kube-apiserver", "kubectl");
  private static final List<String> SCRIPTS = List.of("kube/build.sh", "../kube/build.sh",
      "convoy-sharding-examples/kube/build.sh", "../convoy-sharding-examples/kube/build.sh");

  private final Path dir;

  private KubeBinaries(Path dir) {
    this.dir = dir;
  }

  /** The binaries, built first if needed; {@link Unavailable} says why there are none. */
  public static KubeBinaries locate() throws Unavailable {
    Optional<KubeBinaries> named = named();
    if (named.isPresent()) {
      return named.get();
    }
    Optional<Path> script = script();
    if (script.isPresent()) {
      return new KubeBinaries(build(script.get()));
    }
    return cached().map(KubeBinaries::new).orElseThrow(() -> new Unavailable("no etcd/kube-apiserver binaries in "
        + cache() + " and no build script: run convoy-sharding-examples/kube/build.sh of the source tree"));
  }

  /**
   * The binaries when they are built already; never builds (the demo commands use it). As
   * {@link #locate()}, but the build script runs with {@code --check}, and without a Go toolchain
   * the newest complete directory of the cache is taken. {@link Unavailable} names
   * {@value #BUILD_COMMAND}.
   */
  public static KubeBinaries locateBuilt() throws Unavailable {
    Optional<KubeBinaries> named = named();
    if (named.isPresent()) {
      return named.get();
    }
    Optional<Path> script = script();
    if (script.isPresent()) {
      return checked(script.get(), Map.of());
    }
    return cached().map(KubeBinaries::new).orElseThrow(() -> new Unavailable(howToBuild("no etcd/kube-apiserver "
        + "binaries in " + cache() + " and no build script here")));
  }

  /** The binaries in {@code dir}, or {@link Unavailable} naming what is missing and {@value #BUILD_COMMAND}. */
  public static KubeBinaries in(Path dir) throws Unavailable {
    if (!complete(dir)) {
      throw new Unavailable(howToBuild(dir + " does not hold " + String.join(", ", NAMES)));
    }
    return new KubeBinaries(dir);
  }

  /** {@code why}, then how to build the binaries. */
  static String howToBuild(String why) {
    return why + "; build them with: " + BUILD_COMMAND + " (from the source tree; needs Go 1.26+, about 15 CPU-minutes"
        + " the first time, see docs/testing.md)";
  }

  /** {@link #locateBuilt()} with {@code script}, run with {@code env} added to the environment. */
  static KubeBinaries checked(Path script, Map<String, String> env) throws Unavailable {
    if (!goOnPath()) {
      return cached().map(KubeBinaries::new).orElseThrow(() -> new Unavailable(howToBuild(
          "no etcd/kube-apiserver binaries in " + cache() + " and no Go toolchain on the PATH")));
    }
    ProcessBuilder command = new ProcessBuilder("bash", script.toString(), "--check");
    command.environment().putAll(env);
    try {
      Process p = command.start();
      p.getOutputStream().close();
      CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      int code = p.waitFor();
      String why = new String(err.join(), StandardCharsets.UTF_8).strip();
      if (code == 0 && complete(lastLine(out))) {
        return new KubeBinaries(lastLine(out));
      }
      throw new Unavailable(howToBuild(code == NOT_BUILT && !why.isEmpty() ? why
          : script + " --check failed with exit code " + code + ": " + out + why));
    } catch (IOException e) {
      throw new Unavailable(howToBuild("cannot run " + script + ": " + e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unavailable("interrupted while looking for the kube binaries");
    }
  }

  private static Optional<KubeBinaries> named() throws Unavailable {
    String named = Optional.ofNullable(System.getProperty(BIN_PROPERTY)).orElse(System.getenv(BIN_ENV));
    if (named == null || named.isBlank()) {
      return Optional.empty();
    }
    Path dir = Path.of(named);
    if (!complete(dir)) {
      throw new Unavailable(dir + " (from " + BIN_PROPERTY + " / " + BIN_ENV + ") does not hold " + NAMES);
    }
    return Optional.of(new KubeBinaries(dir));
  }

  private static byte[] readAll(InputStream in) {
    try {
      return in.readAllBytes();
    } catch (IOException e) {
      return new byte[0];
    }
  }

  private static Path lastLine(String out) {
    String[] lines = out.split("\n");
    return Path.of(lines[lines.length - 1].strip());
  }

  /** The etcd binary. */
  public Path etcd() {
    return dir.resolve("etcd");
  }

  /** The kube-apiserver binary. */
  public Path kubeApiServer() {
    return dir.resolve("kube-apiserver");
  }

  /** The kubectl binary, built from the same Kubernetes release. */
  public Path kubectl() {
    return dir.resolve("kubectl");
  }

  @Override
  public String toString() {
    return dir.toString();
  }

  private static Optional<Path> script() {
    String named = System.getProperty(SCRIPT_PROPERTY);
    if (named != null && !named.isBlank()) {
      return Optional.of(Path.of(named));
    }
    return SCRIPTS.stream().map(Path::of).filter(Files::isRegularFile).findFirst();
  }

  /** Runs the build script (its progress goes to our stderr) and returns the directory it prints. */
  private static Path build(Path script) throws Unavailable {
    if (!goOnPath()) {
      throw noGo();
    }
    List<String> command = new ArrayList<>(List.of("bash", script.toString()));
    try {
      Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      p.getOutputStream().close();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      int code = p.waitFor();
      if (code == NO_GO) {
        throw noGo();
      }
      Path dir = lastLine(out);
      if (code != 0 || !complete(dir)) {
        throw new IllegalStateException(script + " failed with exit code " + code + ": " + out);
      }
      return dir;
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + script + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while building the kube binaries", e);
    }
  }

  private static Unavailable noGo() {
    return new Unavailable("no Go toolchain on the PATH, so etcd and kube-apiserver cannot be built"
        + " (install Go 1.26+; see docs/testing.md)");
  }

  private static boolean goOnPath() {
    String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
    return Stream.of(path.split(java.io.File.pathSeparator)).filter(d -> !d.isEmpty())
        .anyMatch(d -> Files.isExecutable(Path.of(d, "go")));
  }

  private static Path cache() {
    return Path.of(System.getProperty("user.home"), ".cache", "convoy-sharding", "kube");
  }

  private static Optional<Path> cached() {
    if (!Files.isDirectory(cache())) {
      return Optional.empty();
    }
    try (Stream<Path> dirs = Files.list(cache())) {
      return dirs.filter(KubeBinaries::complete)
          .max(Comparator.comparing(d -> d.toFile().lastModified()));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static boolean complete(Path dir) {
    return NAMES.stream().allMatch(n -> Files.isExecutable(dir.resolve(n)));
  }

  /** Where a command gets its binaries: {@link #locateBuilt()} in the process, a directory in tests. */
  @FunctionalInterface
  public interface Locator {
    /** The binaries, or {@link Unavailable} saying why there are none. */
    KubeBinaries locate() throws Unavailable;
  }

  /** There are no binaries and they cannot be built here; the message says why, in one line. */
  public static final class Unavailable extends Exception {
    private static final long serialVersionUID = 1L;

    Unavailable(String message) {
      super(message);
    }
  }
}
