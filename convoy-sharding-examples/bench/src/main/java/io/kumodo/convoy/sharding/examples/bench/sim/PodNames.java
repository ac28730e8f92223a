/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import java.util.Random;

/**
 * Replica IDs shaped like the pod names of a Deployment, {@code convoy-cm-<template hash>-<5
 * characters>}: every pod of one revision shares the hash, and a rolling update brings a new one,
 * so the sorted order of old and new pods is what it would be in a cluster.
 */
public final class PodNames {
  private static final String HASH = "bcdfghjklmnpqrstvwxz2456789";
  private final Random random;

  /** Names drawn from {@code random}. */
  public PodNames(Random random) {
    this.random = random;
  }

  /** A new pod-template hash of 10 characters. */
  public String revision() {
    return chars(10);
  }

  /** A new pod name of revision {@code hash}. */
  public String pod(String hash) {
    return "convoy-cm-" + hash + "-" + chars(5);
  }

  private String chars(int n) {
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      sb.append(HASH.charAt(random.nextInt(HASH.length())));
    }
    return sb.toString();
  }
}
