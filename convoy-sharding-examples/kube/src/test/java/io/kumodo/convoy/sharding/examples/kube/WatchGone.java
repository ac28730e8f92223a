/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Counts, per fabric8 client, the informer watches that ended with HTTP 410 Gone. fabric8's
 * {@code Reflector} logs {@value #GONE}... at DEBUG when a watch ends with 410, on a thread of its
 * client's task executor, and then lists again; a client built with {@link #named} runs that
 * executor on threads named after it, so the line tells which client's informer it was. A logback
 * turbo filter records the line (and lets it through to the console) while the Reflector's other
 * DEBUG lines stay off.
 */
final class WatchGone extends TurboFilter implements AutoCloseable {
  static final String REFLECTOR = "io.fabric8.kubernetes.client.informers.impl.cache.Reflector";
  static final String GONE = "Watch restarting due to http gone";
  private static final String THREAD_PREFIX = "convoy-client-";

  private final Map<String, AtomicInteger> byClient = new ConcurrentHashMap<>();
  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();

  private WatchGone() {}

  /** Starts recording. */
  static WatchGone record() {
    WatchGone gone = new WatchGone();
    gone.setContext(gone.context);
    gone.start();
    gone.context.addTurboFilter(gone);
    return gone;
  }

  /** Gives {@code builder}'s client a task executor whose threads carry {@code client} in their names. */
  static KubernetesClientBuilder named(KubernetesClientBuilder builder, String client) {
    return builder.withTaskExecutorSupplier(new KubernetesClientBuilder.ExecutorSupplier() {
      @Override
      public Executor get() {
        AtomicInteger count = new AtomicInteger();
        return Executors.newCachedThreadPool(task -> {
          Thread t = new Thread(task, THREAD_PREFIX + client + "-" + count.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
      }

      @Override
      public void onClose(Executor executor) {
        ((ExecutorService) executor).shutdownNow();
      }
    });
  }

  /** How many informer watches of each named client ended with 410 Gone so far. */
  Map<String, Integer> byClient() {
    Map<String, Integer> copy = new TreeMap<>();
    byClient.forEach((client, n) -> copy.put(client, n.get()));
    return copy;
  }

  @Override
  public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (!REFLECTOR.equals(logger.getName()) || level.isGreaterOrEqual(Level.INFO)) {
      return FilterReply.NEUTRAL;
    }
    if (format == null) {
      return FilterReply.ACCEPT; // isDebugEnabled(): yes, so that the Reflector makes the line
    }
    if (!format.startsWith(GONE)) {
      return FilterReply.DENY;
    }
    String thread = Thread.currentThread().getName();
    if (thread.startsWith(THREAD_PREFIX)) {
      String client = thread.substring(THREAD_PREFIX.length(), thread.lastIndexOf('-'));
      byClient.computeIfAbsent(client, c -> new AtomicInteger()).incrementAndGet();
    }
    return FilterReply.ACCEPT;
  }

  /** Stops recording. */
  @Override
  public void close() {
    context.getTurboFilterList().remove(this);
    stop();
  }
}
