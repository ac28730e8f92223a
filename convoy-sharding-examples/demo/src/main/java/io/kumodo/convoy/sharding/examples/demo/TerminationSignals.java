/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * {@link StopSignal#onTermination()}: handles SIGTERM and SIGINT through {@code sun.misc.Signal}
 * (module {@code jdk.unsupported}, present in every OpenJDK build). It is reached by reflection
 * so that the build stays free of "internal proprietary API" warnings.
 */
final class TerminationSignals implements StopSignal {

  private static final List<String> SIGNALS = List.of("TERM", "INT");

  private final CountDownLatch stop = new CountDownLatch(1);

  @Override
  public void await() throws InterruptedException {
    try {
      install();
    } catch (ReflectiveOperationException | RuntimeException e) {
      // No handlers: this waits until the JVM exits, and its default handling of the signal
      // runs the command's shutdown hook.
    }
    stop.await();
  }

  private void install() throws ReflectiveOperationException {
    Class<?> signalClass = Class.forName("sun.misc.Signal");
    Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
    Constructor<?> newSignal = signalClass.getConstructor(String.class);
    Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
    List<Object[]> previous = new CopyOnWriteArrayList<>();
    InvocationHandler onSignal = (proxy, method, args) -> switch (method.getName()) {
      case "handle" -> {
        stop.countDown();
        for (Object[] signalAndHandler : previous) {
          handle.invoke(null, signalAndHandler);
        }
        yield null;
      }
      case "hashCode" -> System.identityHashCode(proxy);
      case "equals" -> proxy == args[0];
      default -> "TerminationSignals";
    };
    Object handler = Proxy.newProxyInstance(
        handlerClass.getClassLoader(), new Class<?>[] {handlerClass}, onSignal);
    for (String name : SIGNALS) {
      Object signal = newSignal.newInstance(name);
      previous.add(new Object[] {signal, handle.invoke(null, signal, handler)});
    }
  }
}
