/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import java.util.Random;

/**
 * Realistic shard keys: {@code <namespace>/<name>} of 20 to 80 characters, like the queue keys
 * of a controller, about one in eight with non-ASCII characters (accented Latin, Cyrillic, CJK
 * and a character outside the Basic Multilingual Plane), as a custom shard key may carry.
 */
public final class Keys {
  private static final String[] TEAMS = {"payments", "checkout", "search", "identity", "platform", "data", "edge",
      "billing", "catalog", "mobile-api"};
  private static final String[] ENVS = {"prod", "staging", "dev", "eu-west-1", "us-east-2"};
  private static final String[] WORDS = {"release", "cluster", "gateway", "worker", "ingest", "frontend", "cache",
      "scheduler", "reporting", "notifications", "inventory", "pricing"};
  private static final String[] NON_ASCII = {"équipe-données", "каталог-сервис", "支付网关", "zürich-größe",
      "münchen-übersicht", "東京-クラスタ", "🚀-launch", "ñandú-señal"};
  private static final String ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";

  private Keys() {}

  /** {@code count} keys from {@code seed}, each 20 to 80 characters long. */
  public static String[] generate(int count, long seed) {
    Random random = new Random(seed);
    String[] keys = new String[count];
    for (int i = 0; i < count; i++) {
      keys[i] = key(random);
    }
    return keys;
  }

  private static String key(Random random) {
    int target = 20 + random.nextInt(61);
    StringBuilder sb = new StringBuilder(target + 16);
    sb.append(pick(random, TEAMS)).append('-').append(pick(random, ENVS)).append('/');
    boolean nonAscii = random.nextInt(8) == 0;
    sb.append(nonAscii ? pick(random, NON_ASCII) : pick(random, WORDS));
    while (sb.length() < target - 6) {
      sb.append('-').append(pick(random, WORDS));
    }
    sb.append('-');
    while (sb.length() < target) {
      sb.append(ALNUM.charAt(random.nextInt(ALNUM.length())));
    }
    return sb.length() > 80 ? sb.substring(0, 80) : sb.toString();
  }

  private static String pick(Random random, String[] words) {
    return words[random.nextInt(words.length)];
  }
}
