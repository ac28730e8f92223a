/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.testing;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The handle of a task on virtual time: cancellable until it runs; it has no result. Not
 * thread-safe, like the virtual time it belongs to.
 */
class VirtualFuture implements Future<Object> {
  boolean cancelled;
  boolean done;

  /** Called once when a cancel succeeds. */
  void onCancel() {}

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    if (done || cancelled) {
      return false;
    }
    cancelled = true;
    onCancel();
    return true;
  }

  @Override
  public boolean isCancelled() {
    return cancelled;
  }

  @Override
  public boolean isDone() {
    return done || cancelled;
  }

  @Override
  public Object get() {
    return null;
  }

  @Override
  public Object get(long timeout, TimeUnit unit) {
    return null;
  }
}
