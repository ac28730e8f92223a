/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.mockserver;

import java.lang.reflect.Field;

/** Reads private fields of the fabric8 mock server for the workarounds; fails loudly if they move. */
public final class MockFields {
  private MockFields() {}

  /** The value of field {@code name} of {@code target} (declared in its class or a superclass). */
  public static Object read(Object target, String name) {
    for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(target);
      } catch (NoSuchFieldException e) {
        // look in the superclass
      } catch (IllegalAccessException e) {
        throw new AssertionError(e);
      }
    }
    throw new AssertionError("the mock server has no field " + name + " in " + target.getClass());
  }
}
