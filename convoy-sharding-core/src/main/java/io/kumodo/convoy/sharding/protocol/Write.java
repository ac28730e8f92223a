/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.protocol;

import io.kumodo.convoy.sharding.CoordinatorEvents.Operation;
import io.kumodo.convoy.sharding.spi.Lease;

/**
 * One shard-lease write a tick decided: {@code request} to store, made from {@code base} (the
 * lease as this replica last wrote it, or as listed for a take; null for a create).
 */
public record Write(Kind kind, int shard, Lease base, Lease request) {
  /** What a write is for, which decides what its answer changes ({@link Protocol#answered}). */
  public enum Kind {
    /** Renew a held lease (or take back one released and not yet freed). */
    RENEW(Operation.RENEW),
    /** Renew our own earlier take, whose answer was lost, on the version it created. */
    RETAKE(Operation.RETAKE),
    /** Take a free or expired lease: the next fencing token, without a free mark. */
    TAKE(Operation.TAKE),
    /** Create the missing lease, owned only after the create wait. */
    CREATE(Operation.CREATE),
    /** Renew a released lease whose reconciles still run, or in its create wait. */
    KEEP(Operation.RENEW),
    /** Free a released lease: holder set to empty, marked freed by this replica. */
    FREE(Operation.FREE);

    private final Operation operation;

    Kind(Operation operation) {
      this.operation = operation;
    }

    /** The operation reported to {@link io.kumodo.convoy.sharding.CoordinatorEvents}. */
    public Operation operation() {
      return operation;
    }

    /** True for a write that makes the shard held: a take, a retake or a create. */
    public boolean takes() {
      return this == RETAKE || this == TAKE || this == CREATE;
    }
  }

  /** True for a create: the runtime sends it as a create, every other write as an update. */
  public boolean create() {
    return kind == Kind.CREATE;
  }
}
