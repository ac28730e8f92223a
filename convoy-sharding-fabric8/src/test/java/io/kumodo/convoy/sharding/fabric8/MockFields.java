/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import java.lang.reflect.Field;

/** Reads private fields of the fabric8 8.0 mock server for the test workarounds; fails loudly if they move. */
final class MockFields {
  private MockFields() {}

  static Object read(Object target, String name) {
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
