/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.spi.LeaseEvent;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The drain mark on this replica's member lease ({@link LeaseAnnotations#DRAINED}) and who set
 * it. {@link Coordinator#drain()} sets the mark together with {@link LeaseAnnotations#DRAINED_BY}
 * naming this replica, unless the lease was marked already; an operator's {@code kubectl
 * annotate} sets the mark alone. A mark of this replica's own goes at close (unless the member
 * lease is kept as it is) and at the first write of a process that restarts under the same ID;
 * an operator's mark stays until an operator or {@link Coordinator#undrain()} removes it.
 *
 * <p>{@link #request}, {@link #pending} and {@link #noteWatched} are thread-safe; the rest runs
 * in the tick, under the coordinator's lock.
 */
final class DrainMark {
  private final String replicaId;
  /** Requested through the API and not yet written: true drain, false undrain, null none. */
  private final AtomicReference<Boolean> desired = new AtomicReference<>();
  /** Set when the watch showed the mark removed by a write: a later mark is not ours, whatever DRAINED_BY says. */
  private final AtomicBoolean removedSince = new AtomicBoolean();

  DrainMark(String replicaId) {
    this.replicaId = replicaId;
  }

  /** Asks for the mark to be written (true) or removed (false) at the next member-lease write. */
  void request(Boolean drain) {
    desired.set(drain);
  }

  /** The request not yet written, or null. */
  Boolean pending() {
    return desired.get();
  }

  /** Notes a watched change of this replica's member lease: a removed mark ends our claim to a later one. */
  void noteWatched(LeaseEvent event) {
    if (LeaseAnnotations.isDrained(event.previous())
        && (event.current() == null || !LeaseAnnotations.isDrained(event.current()))) {
      removedSince.set(true);
    }
  }

  /**
   * The drain annotations to write over {@code annotations} (changed in place), applying
   * {@code applying} (the request read before the write). At the {@code firstWrite} of this
   * process, a mark of its own (left by an earlier process under this ID) is removed: a restart
   * starts undrained, but keeps an operator's mark.
   */
  void apply(Map<String, String> annotations, Boolean applying, boolean firstWrite) {
    boolean marked = LeaseAnnotations.isDrained(annotations);
    if (!marked || removedSince.get()) {
      annotations.remove(LeaseAnnotations.DRAINED_BY); // the mark it named is gone: a new one is not ours
    } else if (firstWrite && replicaId.equals(annotations.get(LeaseAnnotations.DRAINED_BY))) {
      annotations.remove(LeaseAnnotations.DRAINED);
      annotations.remove(LeaseAnnotations.DRAINED_BY);
    }
    if (Boolean.TRUE.equals(applying) && !LeaseAnnotations.isDrained(annotations)) {
      annotations.put(LeaseAnnotations.DRAINED, "true");
      annotations.put(LeaseAnnotations.DRAINED_BY, replicaId);
    } else if (Boolean.FALSE.equals(applying)) {
      annotations.remove(LeaseAnnotations.DRAINED);
      annotations.remove(LeaseAnnotations.DRAINED_BY);
    }
  }

  /** After a successful member-lease write made with {@code applying} and {@code removedSeen}: the request is done. */
  void written(Boolean applying, boolean removedSeen) {
    if (applying != null) {
      desired.compareAndSet(applying, null); // unless another request came meanwhile
    }
    if (removedSeen) {
      removedSince.compareAndSet(true, false);
    }
  }

  /** Whether a removal was seen; read before {@link #apply}, pass to {@link #written}. */
  boolean removedSeen() {
    return removedSince.get();
  }

  /** The annotations of the member lease to write at close: without the mark if it is ours. */
  void releaseOurs(Map<String, String> annotations) {
    if (LeaseAnnotations.isDrained(annotations) && replicaId.equals(annotations.get(LeaseAnnotations.DRAINED_BY))
        && !removedSince.get()) {
      annotations.remove(LeaseAnnotations.DRAINED);
    }
    annotations.remove(LeaseAnnotations.DRAINED_BY);
  }
}
