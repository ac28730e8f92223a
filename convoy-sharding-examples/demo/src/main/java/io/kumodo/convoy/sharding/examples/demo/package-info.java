/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The demo command line, the executable {@code convoy-demo.jar} ({@link
 * io.kumodo.convoy.sharding.examples.demo.Main}): {@code demo}, {@code api-server}, {@code
 * replica} and {@code status}; see the README and {@code docs/getting-started.md}.
 */
package io.kumodo.convoy.sharding.examples.demo;
