/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Range sharding agrees with the Kubernetes source our real-API-server tier builds. The vectors
 * in {@code src/test/resources/range-shard-vectors.tsv} come from apimachinery v0.37.2's
 * {@code pkg/sharding} ({@code HashField}, a selector's {@code Matches}, {@code HexLess}); to
 * regenerate them, run in {@code convoy-sharding-examples/kube/vectors}:
 * {@code GOFLAGS=-mod=mod go run . > ../../../convoy-sharding-core/src/test/resources/range-shard-vectors.tsv}.
 */
class RangeShardVectorsTest {
  static final Path VECTORS = Path.of("src/test/resources/range-shard-vectors.tsv");

  static List<String[]> lines(String kind) throws IOException {
    return Files.readAllLines(VECTORS, StandardCharsets.UTF_8).stream()
        .map(line -> line.split("\t", -1))
        .filter(fields -> fields[0].equals(kind))
        .toList();
  }

  static String text(String utf8Hex) {
    return new String(HexFormat.of().parseHex(utf8Hex), StandardCharsets.UTF_8);
  }

  static String hex16(long value) {
    return String.format("0x%016x", value);
  }

  @Test
  void fnv1a64IsTheServersHashField() throws IOException {
    List<String[]> hashes = lines("hash");
    assertThat(hashes).hasSizeGreaterThanOrEqualTo(20);
    for (String[] f : hashes) {
      String s = text(f[1]);
      assertThat(hex16(ShardKey.fnv1a64(s))).as("HashField(%s)", s).isEqualTo(f[2]);
    }
  }

  @Test
  void everyRangeBoundIsTheOneTheServerComparesWith() throws IOException {
    List<String[]> ranges = lines("range");
    assertThat(ranges).hasSizeGreaterThan(500);
    for (String[] f : ranges) {
      int s = Integer.parseInt(f[1]);
      int i = Integer.parseInt(f[2]);
      assertThat(ShardKey.rangeBoundHex(i, s)).as("start of %d of %d", i, s).isEqualTo(f[3]);
      assertThat(ShardKey.rangeBoundHex(i + 1, s)).as("end of %d of %d", i, s).isEqualTo(f[4]);
      assertThat(hex16(ShardKey.rangeStart(i, s))).isEqualTo(f[3]);
    }
  }

  @Test
  void anObjectIsInTheShardWhoseSelectorTheServerMatches() throws IOException {
    List<String[]> members = lines("member");
    assertThat(members).hasSizeGreaterThan(500);
    for (String[] f : members) {
      String value = text(f[1]);
      ShardBy by = f[2].equals(ShardBy.UID.fieldPath()) ? ShardBy.UID : ShardBy.NAMESPACE;
      assertThat(by.fieldPath()).isEqualTo(f[2]);
      int s = Integer.parseInt(f[3]);
      int expected = Integer.parseInt(f[4]);
      assertThat(ShardKey.rangeShardOf(ShardKey.fnv1a64(value), s)).as("%s %s of %d", f[2], value, s)
          .isEqualTo(expected);
      if (by == ShardBy.NAMESPACE || !value.isEmpty()) {
        assertThat(by.shardOf(value, "n", value, s)).as("%s %s of %d", f[2], value, s)
            .isEqualTo(expected);
      }
    }
  }

  @Test
  void aHashOnOrBesideABoundIsInTheShardTheServerComparesItInto() throws IOException {
    List<String[]> bounds = lines("bound");
    assertThat(bounds).hasSizeGreaterThan(1000);
    for (String[] f : bounds) {
      int s = Integer.parseInt(f[1]);
      long hash = Long.parseUnsignedLong(f[2].substring(2), 16);
      assertThat(ShardKey.rangeShardOf(hash, s)).as("%s of %d", f[2], s).isEqualTo(Integer.parseInt(f[3]));
    }
  }
}
