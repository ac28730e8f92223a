/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The one flag parser of the demo command line and the benchmarks ({@link
 * io.kumodo.convoy.sharding.examples.cli.Flags}, {@link
 * io.kumodo.convoy.sharding.examples.cli.ParsedFlags}); the spec's flags are {@code
 * CoordinatorOptions}' own, in {@code convoy-sharding-fabric8}.
 */
package io.kumodo.convoy.sharding.examples.cli;
