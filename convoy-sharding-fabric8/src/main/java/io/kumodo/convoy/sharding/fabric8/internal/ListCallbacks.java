/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * fabric8's list callbacks {@code ResourceEventHandler.onBeforeList(String)} and
 * {@code onList(String, boolean)}, which exist from fabric8 8.0 on and not in 7.x. This library
 * compiles and runs against both: its handlers declare the two methods without {@code @Override}
 * (on 8.0 they override, on 7.x nobody calls them) and forward them through here, which calls
 * the delegate's method when the running fabric8 has it and does nothing otherwise. Code that
 * needs to know when an informer's first listing has been delivered checks {@link #present()}
 * and, on 7.x, falls back to the informer's start future and store.
 */
public final class ListCallbacks {
  private static final MethodHandle ON_BEFORE_LIST = find("onBeforeList", MethodType.methodType(void.class, String.class));
  private static final MethodHandle ON_LIST =
      find("onList", MethodType.methodType(void.class, String.class, boolean.class));

  private ListCallbacks() {
  }

  /** True when the running fabric8 calls {@code onList} after each listing (8.0 and later). */
  public static boolean present() {
    return ON_LIST != null;
  }

  /** Calls {@code handler.onBeforeList(resourceVersion)} where fabric8 has it. */
  public static void onBeforeList(ResourceEventHandler<?> handler, String resourceVersion) {
    if (ON_BEFORE_LIST != null) {
      try {
        ON_BEFORE_LIST.invoke(handler, resourceVersion);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new IllegalStateException(e); // the interface method declares no checked exception
      }
    }
  }

  /** Calls {@code handler.onList(resourceVersion, synced)} where fabric8 has it. */
  public static void onList(ResourceEventHandler<?> handler, String resourceVersion, boolean synced) {
    if (ON_LIST != null) {
      try {
        ON_LIST.invoke(handler, resourceVersion, synced);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new IllegalStateException(e); // the interface method declares no checked exception
      }
    }
  }

  private static MethodHandle find(String name, MethodType type) {
    try {
      return MethodHandles.publicLookup().findVirtual(ResourceEventHandler.class, name, type);
    } catch (NoSuchMethodException | IllegalAccessException e) {
      return null; // fabric8 7.x
    }
  }
}
