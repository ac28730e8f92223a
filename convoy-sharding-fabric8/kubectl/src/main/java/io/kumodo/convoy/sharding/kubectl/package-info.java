/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * {@code kubectl convoy} ({@link io.kumodo.convoy.sharding.kubectl.KubectlConvoy}): a kubectl
 * plugin for an operator of a sharded component, reading and marking its Lease objects only. Its
 * flag parser ({@link io.kumodo.convoy.sharding.kubectl.Flags}) is shared with the examples'
 * command lines.
 */
package io.kumodo.convoy.sharding.kubectl;
