/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
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

  /** Reference: 64-bit FNV-1a over String.getBytes(UTF_8). */
  static long reference64(String s) {
    long h = 0xCBF29CE484222325L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xFF;
      h *= 0x100000001B3L;
    }
    return h;
  }

  static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  /** Reference: floor(2^64 * i / S), as fabric8's ShardRange.ofShard computes it. */
  static BigInteger referenceStart(int shard, int shardCount) {
    return TWO_64.multiply(BigInteger.valueOf(shard)).divide(BigInteger.valueOf(shardCount));
  }

  /** Reference: the last shard whose start is at most the hash, by binary search over BigIntegers. */
  static int referenceRangeShard(long hash, int shardCount) {
    BigInteger h = new BigInteger(Long.toUnsignedString(hash));
    int low = 0;
    int high = shardCount - 1;
    while (low < high) {
      int mid = (int) (((long) low + high + 1) / 2);
      if (referenceStart(mid, shardCount).compareTo(h) <= 0) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return low;
  }

  static final int[] RANGE_COUNTS = {1, 2, 3, 5, 6, 7, 9, 10, 12, 31, 32, 33, 63, 100, 255, 256, 257, 1000, 1023,
      4095, 4096, 4097, 65_537, 1 << 20, 999_983, (1 << 30) + 1, Integer.MAX_VALUE - 1, Integer.MAX_VALUE};

  @ParameterizedTest(name = "fnv1a64(\"{0}\") = {1}")
  @CsvSource(delimiter = '|', value = {
      "''|cbf29ce484222325",
      "a|af63dc4c8601ec8c",
      "foobar|85944171f73967e8",
  })
  void fnv1a64MatchesThePublishedTestVectors(String input, String hex) {
    assertThat(Long.toHexString(ShardKey.fnv1a64(input))).isEqualTo(hex);
  }

  @Test
  void fnv1a64HashesRandomUnicodeStringsLikeGetBytes() {
    Random random = new Random(64);
    for (int n = 0; n < 20_000; n++) {
      String s = randomUnicode(random);
      assertThat(ShardKey.fnv1a64(s)).as("String %s", s).isEqualTo(reference64(s));
    }
    for (String k : new String[] {"\uD800lone-high", "lone-low\uDC00", "end-high\uD83D", "\uD83D\uDE80"}) {
      assertThat(ShardKey.fnv1a64(k)).as(k).isEqualTo(reference64(k));
    }
  }

  @Test
  void aRangeStartsAtTheFloorOf2To64TimesTheShardOverTheCount() {
    for (int count = 1; count <= 300; count++) {
      for (int shard = 0; shard < count; shard++) {
        assertThat(new BigInteger(Long.toUnsignedString(ShardKey.rangeStart(shard, count))))
            .as("start of %d of %d", shard, count).isEqualTo(referenceStart(shard, count));
      }
    }
    for (int count : RANGE_COUNTS) {
      for (int shard : sampleShards(count)) {
        assertThat(new BigInteger(Long.toUnsignedString(ShardKey.rangeStart(shard, count))))
            .as("start of %d of %d", shard, count).isEqualTo(referenceStart(shard, count));
      }
    }
  }

  @Test
  void aHashOnEitherSideOfEveryBoundIsInTheRangeThatHoldsIt() {
    for (int count = 1; count <= 300; count++) {
      checkBounds(count, java.util.stream.IntStream.range(0, count).toArray());
    }
    for (int count : RANGE_COUNTS) {
      checkBounds(count, sampleShards(count));
    }
  }

  private static void checkBounds(int count, int[] shards) {
    for (int shard : shards) {
      long start = ShardKey.rangeStart(shard, count);
      for (long hash : new long[] {start - 1, start, start + 1, start + 2}) {
        assertThat(ShardKey.rangeShardOf(hash, count)).as("%s of %d", Long.toUnsignedString(hash), count)
            .isEqualTo(referenceRangeShard(hash, count));
      }
      assertThat(ShardKey.rangeShardOf(start, count)).isEqualTo(shard);
      assertThat(ShardKey.rangeShardOf(start - 1, count)).isEqualTo(shard == 0 ? count - 1 : shard - 1);
    }
  }

  @Test
  void aRandomHashIsInTheRangeThatHoldsIt() {
    Random random = new Random(26);
    for (int count : RANGE_COUNTS) {
      for (int n = 0; n < 2_000; n++) {
        long hash = random.nextLong();
        assertThat(ShardKey.rangeShardOf(hash, count)).as("%s of %d", Long.toUnsignedString(hash), count)
            .isEqualTo(referenceRangeShard(hash, count));
      }
    }
  }

  @Test
  void oneShardHoldsEveryHash() {
    for (long hash : new long[] {0, 1, Long.MAX_VALUE, Long.MIN_VALUE, -1}) {
      assertThat(ShardKey.rangeShardOf(hash, 1)).isZero();
    }
    assertThat(ShardKey.rangeBoundHex(0, 1)).isEqualTo("0x0000000000000000");
    assertThat(ShardKey.rangeBoundHex(1, 1)).isEqualTo("0x10000000000000000");
  }

  @Test
  void boundsAreWrittenAsTheServerWritesThem() {
    assertThat(ShardKey.rangeBoundHex(0, 2)).isEqualTo("0x0000000000000000");
    assertThat(ShardKey.rangeBoundHex(1, 2)).isEqualTo("0x8000000000000000");
    assertThat(ShardKey.rangeBoundHex(2, 2)).isEqualTo("0x10000000000000000");
    assertThat(ShardKey.rangeBoundHex(1, 3)).isEqualTo("0x5555555555555555");
    assertThat(ShardKey.rangeBoundHex(2, 3)).isEqualTo("0xaaaaaaaaaaaaaaaa");
    assertThat(ShardKey.rangeBoundHex(1, 4096)).isEqualTo("0x0010000000000000");
    for (int count : RANGE_COUNTS) {
      for (int shard : sampleShards(count)) {
        assertThat(ShardKey.rangeBoundHex(shard, count))
            .isEqualTo(String.format("0x%016x", referenceStart(shard, count)));
      }
    }
  }

  @Test
  void rejectsAShardOrBoundOutsideTheCount() {
    assertThatThrownBy(() -> ShardKey.rangeStart(3, 3)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ShardKey.rangeStart(-1, 3)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ShardKey.rangeBoundHex(4, 3)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ShardKey.rangeBoundHex(-1, 3)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ShardKey.rangeShardOf(0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shardCount");
  }

  @Test
  void shardByNameIsTheSpecsKeyAndTheRangeModesHashTheirField() {
    assertThat(ShardBy.NAME.shardOf("team-a", "web", "uid-1", 32)).isEqualTo(ShardKey.shardOf("team-a/web", 32));
    assertThat(ShardBy.UID.shardOf("team-a", "web", "uid-1", 32))
        .isEqualTo(ShardKey.rangeShardOf(ShardKey.fnv1a64("uid-1"), 32));
    assertThat(ShardBy.NAMESPACE.shardOf("team-a", "web", null, 32))
        .isEqualTo(ShardKey.rangeShardOf(ShardKey.fnv1a64("team-a"), 32));
    assertThat(ShardBy.NAMESPACE.shardOf(null, "node-1", null, 32))
        .isEqualTo(ShardKey.rangeShardOf(ShardKey.fnv1a64(""), 32));
    assertThat(ShardBy.UID.fieldPath()).isEqualTo("object.metadata.uid");
    assertThat(ShardBy.NAMESPACE.fieldPath()).isEqualTo("object.metadata.namespace");
    assertThat(ShardBy.NAME.isRange()).isFalse();
    assertThat(ShardBy.UID.isRange()).isTrue();
    assertThatThrownBy(ShardBy.NAME::fieldPath).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> ShardBy.UID.shardOf("team-a", "web", null, 32))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("team-a/web");
  }

  private static int[] sampleShards(int count) {
    return java.util.stream.IntStream.of(0, 1, 2, count / 3, count / 2, count / 2 + 1, count - 2, count - 1)
        .filter(i -> i >= 0 && i < count).distinct().toArray();
  }
}
