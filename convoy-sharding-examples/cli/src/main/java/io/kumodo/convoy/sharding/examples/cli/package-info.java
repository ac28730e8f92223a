/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The load average that benchmarks print beside their figures. The flag parser of the demo
 * command line and the benchmarks is the kubectl plugin's ({@link
 * io.kumodo.convoy.sharding.kubectl.Flags}); the spec's flags are {@code CoordinatorOptions}' own,
 * in {@code convoy-sharding-fabric8}.
 */
package io.kumodo.convoy.sharding.examples.cli;
