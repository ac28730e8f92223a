/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The sample sharded controller users copy: {@link
 * io.kumodo.convoy.sharding.examples.controller.SampleController}, its {@code WorkQueue}, {@link
 * io.kumodo.convoy.sharding.examples.controller.ShardedReplica} and the sample Cluster/Release
 * objects ({@link io.kumodo.convoy.sharding.examples.controller.SampleObjects}). It depends on
 * {@code convoy-sharding-core}, {@code convoy-sharding-fabric8} and fabric8 only.
 */
package io.kumodo.convoy.sharding.examples.controller;
