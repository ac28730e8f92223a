/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.mockserver;

import io.fabric8.mockwebserver.Context;
import java.lang.reflect.Constructor;

/**
 * The mock server's {@link Context} with fabric8's own JSON mapper, as fabric8's JUnit extension
 * builds it, on fabric8 8.0 and 7.x alike: {@code Serialization.jsonMapper()} returns a Jackson 3
 * mapper on 8.0 and a Jackson 2 one on 7.x, so a call compiled against one version fails on the
 * other (the josdk example's tests run the fabric8 tests' {@code FaultyApiServer} on 7.6.1).
 */
public final class MockContexts {
  private static final String SERIALIZATION = "io.fabric8.kubernetes.client.utils.Serialization";

  private MockContexts() {
  }

  /** A new context whose mapper is {@code Serialization.jsonMapper()}. */
  public static Context kubernetes() {
    try {
      // by name: the mock server's users bring kubernetes-client-api, this module compiles without it
      Object mapper = Class.forName(SERIALIZATION).getMethod("jsonMapper").invoke(null);
      for (Constructor<?> c : Context.class.getConstructors()) {
        if (c.getParameterCount() == 1 && c.getParameterTypes()[0].isInstance(mapper)) {
          return (Context) c.newInstance(mapper);
        }
      }
      throw new IllegalStateException("no constructor of " + Context.class + " takes a " + mapper.getClass());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot build the mock server's context", e);
    }
  }
}
