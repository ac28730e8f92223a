/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.protocol;

import io.kumodo.convoy.sharding.Assignment;
import java.time.Duration;

/** The options of one replica that its decisions read. */
public record Options(String component, String replicaId, String incarnation, int shardCount,
    Duration leaseDuration, long renewNanos, Assignment assignment) {}
