/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

/**
 * The shard of an object: {@code FNV-1a("<namespace>/<name>") mod S}.
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
 */
public final class ShardKey {
  static final int OFFSET_BASIS = 0x811C9DC5; // 2166136261
  static final int PRIME = 0x01000193; // 16777619

  private ShardKey() {}

  /** 32-bit FNV-1a of the UTF-8 encoding of {@code s}. Read the result as unsigned. */
  public static int fnv1a32(CharSequence s) {
    return hashChars(OFFSET_BASIS, s);
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
    int h = OFFSET_BASIS;
    if (namespace != null && !namespace.isEmpty()) {
      h = hashChars(h, namespace);
      h = (h ^ '/') * PRIME;
    }
    h = hashChars(h, name);
    return reduce(h, shardCount);
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

  private static int hashChars(int hash, CharSequence s) {
    int h = hash;
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        h = (h ^ c) * PRIME;
      } else if (c < 0x800) {
        h = (h ^ (0xC0 | (c >> 6))) * PRIME;
        h = (h ^ (0x80 | (c & 0x3F))) * PRIME;
      } else if (Character.isSurrogate(c)) {
        char d;
        if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(d = s.charAt(i + 1))) {
          int cp = Character.toCodePoint(c, d);
          i++;
          h = (h ^ (0xF0 | (cp >> 18))) * PRIME;
          h = (h ^ (0x80 | ((cp >> 12) & 0x3F))) * PRIME;
          h = (h ^ (0x80 | ((cp >> 6) & 0x3F))) * PRIME;
          h = (h ^ (0x80 | (cp & 0x3F))) * PRIME;
        } else {
          h = (h ^ '?') * PRIME; // unpaired surrogate: what String.getBytes(UTF_8) writes
        }
      } else {
        h = (h ^ (0xE0 | (c >> 12))) * PRIME;
        h = (h ^ (0x80 | ((c >> 6) & 0x3F))) * PRIME;
        h = (h ^ (0x80 | (c & 0x3F))) * PRIME;
      }
    }
    return h;
  }
}
