/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.mockserver;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Forwards a call to a mock-server method that only some fabric8 versions have (8.0's
 * {@code Dispatcher.releaseResources()}, {@code WebSocketListener.onPing}), so the wrappers in
 * the wrappers of the fabric8 tests and of the demo compile and behave the same on fabric8 7.x and 8.0.
 */
public final class IfPresent {
  private IfPresent() {
  }

  /** Calls public method {@code name(types)} on {@code target} when its class has it. */
  public static void call(Object target, String name, Class<?>[] types, Object... args) {
    Method method;
    try {
      method = target.getClass().getMethod(name, types);
    } catch (NoSuchMethodException e) {
      return; // this fabric8 version has no such method
    }
    try {
      method.invoke(target, args);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }
}
