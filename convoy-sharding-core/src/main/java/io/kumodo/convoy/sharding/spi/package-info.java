/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The lease-store SPI: what an implementer of a {@link io.kumodo.convoy.sharding.spi.LeaseStore}
 * needs (the lease record, its key and role, the watch event and the two exceptions). The
 * coordinator calls a store only through these types; the Kubernetes store of
 * {@code convoy-sharding-fabric8} and the test kit's in-memory store implement it.
 */
package io.kumodo.convoy.sharding.spi;
