/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

/**
 * The shard of an object: {@code FNV-1a("<namespace>/<name>") mod S}, or, for range sharding
 * ({@link ShardBy#UID}, {@link ShardBy#NAMESPACE}), the range that holds a 64-bit FNV-1a.
 *
 * <p>The hash is 32-bit FNV-1a (offset basis 2166136261, prime 16777619) over the UTF-8 bytes
 * of the key, read as an unsigned number. Every method is allocation-free: UTF-8 is encoded
 * on the fly, including characters outside the Basic Multilingual Plane. An unpaired surrogate
 * is hashed as {@code '?'}, exactly as {@link String#getBytes(java.nio.charset.Charset)} encodes it.
 *
 * <p>For a namespaced object the key is {@code <namespace>/<name>}; for a cluster-scoped object
 * (null or empty namespace) it is {@code <name>}. That is the string fabric8's
 * {@code Cache.metaNamespaceKeyFunc} uses as a work-queue key, so a reconcile gate can compute
 * the shard straight from its queue key.
 *
 * <p>Range sharding is the arithmetic of Kubernetes' server-side sharded list and watch
 * ({@code k8s.io/apimachinery/pkg/sharding}), bit for bit: {@link #fnv1a64} is its
 * {@code HashField}, and shard {@code i} of {@code S} holds the hashes {@code h} with
 * {@code floor(2^64 * i / S) <= h < floor(2^64 * (i + 1) / S)}, the range fabric8's
 * {@code ShardRange.ofShard(field, i, S)} sends. Hashes and bounds are unsigned 64-bit numbers.
 */
public final class ShardKey {
  static final int OFFSET_BASIS = 0x811C9DC5; // 2166136261
  static final int PRIME = 0x01000193; // 16777619
  static final long OFFSET_BASIS_64 = 0xCBF29CE484222325L; // 14695981039346656037
  static final long PRIME_64 = 0x100000001B3L; // 1099511628211
  /** The end of the last range, 2^64, as the server writes it. */
  static final String END_OF_HASHES = "0x10000000000000000";

  private ShardKey() {}

  /** 32-bit FNV-1a of the UTF-8 encoding of {@code s}. Read the result as unsigned. */
  public static int fnv1a32(CharSequence s) {
    return (int) fnv1a(OFFSET_BASIS, PRIME, s);
  }

  /** The shard of {@code key}: {@code fnv1a32(key)} as unsigned, modulo {@code shardCount}. */
  public static int shardOf(CharSequence key, int shardCount) {
    checkShardCount(shardCount);
    return reduce(fnv1a32(key), shardCount);
  }

  /**
   * The shard of the object {@code namespace/name}; a null or empty namespace means a
   * cluster-scoped object, whose key is the name alone.
   */
  public static int shardOf(String namespace, String name, int shardCount) {
    checkShardCount(shardCount);
    if (name == null) {
      throw new NullPointerException("name");
    }
    long h = OFFSET_BASIS;
    if (namespace != null && !namespace.isEmpty()) {
      h = fnv1a(h, PRIME, namespace);
      h = (h ^ '/') * PRIME;
    }
    return reduce((int) fnv1a(h, PRIME, name), shardCount);
  }

  /**
   * 64-bit FNV-1a of the UTF-8 encoding of {@code s}, the hash the API server computes over a
   * sharded field ({@code HashField}). Read the result as unsigned.
   */
  public static long fnv1a64(CharSequence s) {
    return fnv1a(OFFSET_BASIS_64, PRIME_64, s);
  }

  /**
   * The shard of {@code shardCount} whose range holds {@code hash} (read as unsigned): the one
   * {@code i} with {@code rangeStart(i) <= hash < rangeStart(i + 1)}, the end of the last range
   * being 2^64. Exact at every bound, and allocation-free.
   */
  public static int rangeShardOf(long hash, int shardCount) {
    checkShardCount(shardCount);
    // floor(hash * S / 2^64) is i or i - 1: start(i) = floor(2^64 * i / S) may lie below
    // 2^64 * i / S by less than one, so a hash in [start(i), 2^64 * i / S) gives i - 1 here.
    int shard = (int) unsignedMultiplyHigh(hash, shardCount);
    if (shard + 1 < shardCount && Long.compareUnsigned(rangeStart(shard + 1, shardCount), hash) <= 0) {
      shard++;
    }
    return shard;
  }

  /**
   * The lower bound of shard {@code shard}'s range, {@code floor(2^64 * shard / shardCount)},
   * inclusive; read it as unsigned. The shard's range ends where the next one's starts, the last
   * at 2^64.
   */
  public static long rangeStart(int shard, int shardCount) {
    checkShardCount(shardCount);
    if (shard < 0 || shard >= shardCount) {
      throw new IllegalArgumentException("shard " + shard + " is not one of " + shardCount);
    }
    if (shard == 0) {
      return 0;
    }
    // 2^64 = q * S + r; floor(2^64 * i / S) = i * q + floor(i * r / S), with i * r < 2^62.
    long q = Long.divideUnsigned(-1L, shardCount);
    long r = Long.remainderUnsigned(-1L, shardCount) + 1;
    if (r == shardCount) {
      q++;
      r = 0;
    }
    return shard * q + shard * r / shardCount;
  }

  /**
   * A bound of the ranges of {@code shardCount} shards as the API server writes it in a shard
   * selector: {@code "0x%016x"} of {@link #rangeStart rangeStart(boundIndex)} for a bound index
   * below {@code shardCount} (shard {@code i}'s range is {@code [bound(i), bound(i + 1))}), and
   * {@code "0x10000000000000000"} (2^64) for the index {@code shardCount}.
   */
  public static String rangeBoundHex(int boundIndex, int shardCount) {
    checkShardCount(shardCount);
    if (boundIndex == shardCount) {
      return END_OF_HASHES;
    }
    if (boundIndex < 0 || boundIndex > shardCount) {
      throw new IllegalArgumentException("bound " + boundIndex + " is not one of 0.." + shardCount);
    }
    String digits = Long.toHexString(rangeStart(boundIndex, shardCount));
    return "0x" + "0".repeat(16 - digits.length()) + digits;
  }

  /** The high 64 bits of the unsigned 128-bit product of {@code a} and {@code b} (Java 18 has it). */
  private static long unsignedMultiplyHigh(long a, long b) {
    return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
  }

  /**
   * {@code hash} read as unsigned, modulo {@code shardCount} (at least 1). For a power of two
   * that is the low bits, a mask instead of a 64-bit division (which the JIT cannot fold when
   * the count is a field, as in a coordinator).
   */
  static int reduce(int hash, int shardCount) {
    if ((shardCount & (shardCount - 1)) == 0) {
      return hash & (shardCount - 1);
    }
    return (int) (Integer.toUnsignedLong(hash) % shardCount);
  }

  private static void checkShardCount(int shardCount) {
    if (shardCount < 1) {
      throw new IllegalArgumentException("shardCount must be at least 1: " + shardCount);
    }
  }

  /**
   * FNV-1a of the UTF-8 encoding of {@code s}, continued from {@code hash}, in 64 bits. It serves
   * the 32-bit hash too: the low 32 bits of a product depend only on the low 32 bits of its
   * factors, so with the 32-bit prime the low half of the result is the 32-bit FNV-1a
   * ({@code ShardKeyTest} checks both against {@code getBytes}).
   */
  private static long fnv1a(long hash, long prime, CharSequence s) {
    long h = hash;
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        h = (h ^ c) * prime;
      } else if (c < 0x800) {
        h = (h ^ (0xC0 | (c >> 6))) * prime;
        h = (h ^ (0x80 | (c & 0x3F))) * prime;
      } else if (Character.isSurrogate(c)) {
        char d;
        if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(d = s.charAt(i + 1))) {
          int cp = Character.toCodePoint(c, d);
          i++;
          h = (h ^ (0xF0 | (cp >> 18))) * prime;
          h = (h ^ (0x80 | ((cp >> 12) & 0x3F))) * prime;
          h = (h ^ (0x80 | ((cp >> 6) & 0x3F))) * prime;
          h = (h ^ (0x80 | (cp & 0x3F))) * prime;
        } else {
          h = (h ^ '?') * prime; // unpaired surrogate: what String.getBytes(UTF_8) writes
        }
      } else {
        h = (h ^ (0xE0 | (c >> 12))) * prime;
        h = (h ^ (0x80 | ((c >> 6) & 0x3F))) * prime;
        h = (h ^ (0x80 | (c & 0x3F))) * prime;
      }
    }
    return h;
  }
}
