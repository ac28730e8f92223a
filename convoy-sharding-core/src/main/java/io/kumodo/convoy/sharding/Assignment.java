package io.kumodo.convoy.sharding;

import java.util.BitSet;
import java.util.List;

/**
 * Decides which shards each live replica wants. Every replica computes it on its own from the
 * same sorted list of live replica IDs, so the result must depend on nothing else: all replicas
 * of a component must use the same assignment.
 */
public interface Assignment {

  /** A short name, published on member leases so that a mismatch is visible. */
  String name();

  /**
   * The shards that the replica at position {@code self} of {@code liveIds} wants.
   *
   * @param liveIds the live replica IDs, sorted, never empty
   * @param self the position of the calling replica in {@code liveIds}
   * @param shardCount S
   */
  BitSet wanted(List<String> liveIds, int self, int shardCount);

  /** The spec's rule: the replica at position k of N live replicas wants each shard i where i mod N = k. */
  static Assignment modulo() {
    return Modulo.INSTANCE;
  }

  /** The {@code i mod N = k} rule. */
  final class Modulo implements Assignment {
    static final Modulo INSTANCE = new Modulo();

    private Modulo() {}

    @Override
    public String name() {
      return "modulo";
    }

    @Override
    public BitSet wanted(List<String> liveIds, int self, int shardCount) {
      BitSet wanted = new BitSet(shardCount);
      for (int i = self; i < shardCount; i += liveIds.size()) {
        wanted.set(i);
      }
      return wanted;
    }

    @Override
    public String toString() {
      return name();
    }
  }
}
