/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.lang.reflect.Field;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit extension for ITs that need the fabric8 ITs' mock server but no fleet: before each test it
 * starts a {@link FaultyApiServer} (whose watches close off its event loop) and one client of it,
 * and sets the test instance's fields of those two types, as fabric8's
 * {@code @EnableKubernetesMockClient} does for its own server; after the test it closes both.
 * Public for the examples' ITs (josdk's {@code ShardedOperatorIT}).
 */
public final class WithFaultyApiServer implements BeforeEachCallback, AfterEachCallback {
  private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(WithFaultyApiServer.class);

  @Override
  public void beforeEach(ExtensionContext context) throws IllegalAccessException {
    FaultyApiServer api = FaultyApiServer.start();
    KubernetesClient client = FaultyApiServer.client(api.port(), c -> c);
    context.getStore(STORE).put("api", api);
    context.getStore(STORE).put("client", client);
    Object test = context.getRequiredTestInstance();
    for (Class<?> c = test.getClass(); c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (f.getType() == FaultyApiServer.class || f.getType() == KubernetesClient.class) {
          f.setAccessible(true);
          f.set(test, f.getType() == FaultyApiServer.class ? api : client);
        }
      }
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    context.getStore(STORE).get("client", KubernetesClient.class).close();
    context.getStore(STORE).get("api", FaultyApiServer.class).close();
  }
}
