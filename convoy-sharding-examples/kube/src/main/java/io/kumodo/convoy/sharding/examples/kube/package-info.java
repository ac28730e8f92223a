/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The API servers the examples and the tests run on: fabric8's mock API server made to answer
 * kubectl ({@link io.kumodo.convoy.sharding.examples.kube.MockApiServer}) and a real etcd and
 * kube-apiserver built from source by {@code build.sh} ({@link
 * io.kumodo.convoy.sharding.examples.kube.RealApiServer}, {@link
 * io.kumodo.convoy.sharding.examples.kube.KubeBinaries}).
 */
package io.kumodo.convoy.sharding.examples.kube;
