/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.util.concurrent.atomic.AtomicReference;

/**
 * This replica's own drain, asked for through {@link Coordinator#drain()} and
 * {@link Coordinator#undrain()}. A drain releases the member lease (holder empty) and stops its
 * renewals, so peers no longer count this replica live. An undrain takes the member lease back,
 * without an operator's mark ({@link LeaseAnnotations#DRAINED}) if one is on it. The replica's own
 * drain is written on no lease: a process that restarts under the same ID starts undrained, and a
 * mark on the member lease is always an operator's.
 *
 * <p>{@link #request} and {@link #pending} are thread-safe; the rest runs in the tick, under the
 * coordinator's lock.
 */
final class DrainRequest {
  /** Requested through the API and not yet carried out: true drain, false undrain, null none. */
  private final AtomicReference<Boolean> desired = new AtomicReference<>();
  /** Whether the member lease is released for a drain of this replica's own, and not taken back since. */
  private boolean released;

  /** Asks for a drain (true) or an undrain (false) at the next tick. */
  void request(Boolean drain) {
    desired.set(drain);
  }

  /** The request not yet carried out, or null. */
  Boolean pending() {
    return desired.get();
  }

  /** True while the member lease is released for this replica's own drain. */
  boolean released() {
    return released;
  }

  /**
   * After a tick carried out {@code applying} (the request read before its write): the member
   * lease is now {@code released} for a drain, or held; the request is done unless another came
   * meanwhile.
   */
  void carriedOut(Boolean applying, boolean released) {
    this.released = released;
    if (applying != null) {
      desired.compareAndSet(applying, null);
    }
  }
}
