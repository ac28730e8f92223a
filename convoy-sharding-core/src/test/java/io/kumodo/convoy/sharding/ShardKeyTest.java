/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShardKeyTest {

  /** Reference: FNV-1a over String.getBytes(UTF_8). */
  static int reference(String s) {
    int h = 0x811C9DC5;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xFF;
      h *= 0x01000193;
    }
    return h;
  }

  @ParameterizedTest(name = "fnv1a32(\"{0}\") = {1}")
  @CsvSource(delimiter = '|', value = {
      "''|811c9dc5",
      "a|e40c292c",
      "b|e70c2de5",
      "c|e60c2c52",
      "foo|a9f37ed7",
      "foob|3f5076ef",
      "fooba|39aaa18a",
      "foobar|bf9cf968",
      "chongo was here!\\n|d49930d5",
  })
  void matchesThePublishedFnv1a32TestVectors(String input, String hex) {
    String s = input.replace("\\n", "\n");
    assertThat(Integer.toHexString(ShardKey.fnv1a32(s))).isEqualTo(hex);
  }

  @Test
  void hashesNonAsciiKeysAsTheirUtf8Bytes() {
    String[] keys = {"café/ünïcödé", "日本/東京", "ns/emoji-\uD83D\uDE80-rocket", "\uD800lone-high", "lone-low\uDC00",
        "end-high\uD83D", "ß/∑/€/\u07FF/\u0800/\uFFFF"};
    for (String k : keys) {
      assertThat(ShardKey.fnv1a32(k)).as(k).isEqualTo(reference(k));
    }
  }

  @Test
  void hashesRandomUnicodeStringsLikeGetBytes() {
    Random random = new Random(42);
    for (int n = 0; n < 20_000; n++) {
      String s = randomUnicode(random);
      int expected = reference(s);
      assertThat(ShardKey.fnv1a32(s)).as("String %s", s).isEqualTo(expected);
      assertThat(ShardKey.fnv1a32(new StringBuilder(s))).as("StringBuilder %s", s).isEqualTo(expected);
      int shards = 1 + random.nextInt(5000);
      int cut = s.isEmpty() ? 0 : random.nextInt(s.length());
      String namespace = s.substring(0, cut);
      String name = s.substring(cut);
      assertThat(ShardKey.shardOf(namespace.isEmpty() ? null : namespace, name, shards)).as("shardOf(%s, %s)",
          namespace, name).isEqualTo((int) (Integer.toUnsignedLong(
              reference(namespace.isEmpty() ? name : namespace + "/" + name)) % shards));
    }
  }

  /**
   * Runs of one class each (so the fast path's ASCII and two-byte runs start and end anywhere):
   * ASCII, Latin-1, other two-byte, three-byte BMP, supplementary pairs, unpaired surrogates of
   * either kind, and a high surrogate at the very end.
   */
  static String randomUnicode(Random random) {
    StringBuilder sb = new StringBuilder();
    int runs = random.nextInt(6);
    for (int r = 0; r < runs; r++) {
      int kind = random.nextInt(7);
      int len = 1 + random.nextInt(random.nextBoolean() ? 3 : 40);
      for (int i = 0; i < len; i++) {
        switch (kind) {
          case 0 -> sb.append((char) random.nextInt(0x80));
          case 1 -> sb.append((char) (0x80 + random.nextInt(0x80)));
          case 2 -> sb.append((char) (0x100 + random.nextInt(0x700)));
          case 3 -> sb.append((char) (0x800 + random.nextInt(0xF800)));
          case 4 -> sb.appendCodePoint(0x10000 + random.nextInt(0x100000));
          case 5 -> sb.append((char) (0xD800 + random.nextInt(0x800)));
          default -> sb.append((char) random.nextInt(0x10000));
        }
      }
    }
    if (random.nextInt(10) == 0) {
      sb.append((char) (0xD800 + random.nextInt(0x400)));
    }
    return sb.toString();
  }

  @Test
  void shardReadsTheHashAsUnsigned() {
    // fnv1a32("foobar") = 0xbf9cf968 is negative as an int; unsigned it is 3214735720.
    assertThat(ShardKey.shardOf("foobar", 32)).isEqualTo((int) (3214735720L % 32));
    assertThat(ShardKey.shardOf("foobar", 1000)).isEqualTo((int) (3214735720L % 1000));
    for (int i = 0; i < 1000; i++) {
      assertThat(ShardKey.shardOf("key-" + i, 7)).isBetween(0, 6);
    }
  }

  @Test
  void theShardIsTheUnsignedHashModuloTheCountForPowersOfTwoAndOtherCounts() {
    Random random = new Random(7);
    int[] counts = {1, 2, 3, 4, 7, 8, 32, 33, 64, 100, 256, 1000, 1024, 4096, 4097, 1 << 20, 1 << 30,
        (1 << 30) + 1, Integer.MAX_VALUE};
    int[] edges = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x811C9DC5};
    for (int count : counts) {
      for (int hash : edges) {
        assertThat(ShardKey.reduce(hash, count)).as("%08x mod %d", hash, count)
            .isEqualTo((int) (Integer.toUnsignedLong(hash) % count));
      }
      for (int n = 0; n < 20_000; n++) {
        int hash = random.nextInt();
        assertThat(ShardKey.reduce(hash, count)).as("%08x mod %d", hash, count)
            .isEqualTo((int) (Integer.toUnsignedLong(hash) % count));
      }
    }
    for (int n = 0; n < 20_000; n++) {
      String s = randomUnicode(random);
      int count = 1 << random.nextInt(13);
      assertThat(ShardKey.shardOf(s, count)).as("shardOf(%s, %d)", s, count)
          .isEqualTo((int) (Integer.toUnsignedLong(reference(s)) % count));
    }
  }

  @Test
  void namespacedKeyIsNamespaceSlashName() {
    assertThat(ShardKey.shardOf("team-a", "web", 32)).isEqualTo(ShardKey.shardOf("team-a/web", 32));
    assertThat(ShardKey.shardOf("ñs", "名前", 977)).isEqualTo(ShardKey.shardOf("ñs/名前", 977));
  }

  @Test
  void clusterScopedKeyIsTheNameAlone() {
    assertThat(ShardKey.shardOf(null, "prod-eu", 32)).isEqualTo(ShardKey.shardOf("prod-eu", 32));
    assertThat(ShardKey.shardOf("", "prod-eu", 32)).isEqualTo(ShardKey.shardOf("prod-eu", 32));
  }

  @Test
  void changingTheShardCountMovesAlmostEveryKey() {
    int moved = 0;
    for (int i = 0; i < 10_000; i++) {
      String key = "demo/object-" + i;
      if (ShardKey.shardOf(key, 32) != ShardKey.shardOf(key, 33)) {
        moved++;
      }
    }
    // Only keys whose hash agrees mod 32 and mod 33 stay: about 1 in 33.
    assertThat(moved).isGreaterThan(9_000);
  }

  @Test
  void rejectsAShardCountBelowOne() {
    assertThatThrownBy(() -> ShardKey.shardOf("a", 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shardCount");
  }
}
