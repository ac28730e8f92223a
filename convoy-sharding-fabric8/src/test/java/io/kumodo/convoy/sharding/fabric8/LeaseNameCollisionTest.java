/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Lease names never collide across components: the components whose names could overlap
 * another component's are exactly those with a {@code member} word after the first, and
 * {@code Coordinator.Builder} rejects them. Checked over every name built from a small
 * alphabet of words chosen to make overlaps likely.
 */
class LeaseNameCollisionTest {
  private static final String[] WORDS = {"x", "member", "shard", "1", "m"};
  private static final int SHARDS = 3;

  @Test
  void memberNameOfOneComponentEqualsShardNameOfAnotherWithoutTheRule() {
    assertThat(LeaseNames.memberName("x", "shard-1")).isEqualTo(LeaseNames.shardName("x-member", 1));
    assertThat(LeaseNames.memberName("x", "y-shard-1")).isEqualTo(LeaseNames.shardName("x-member-y", 1));
    assertThatThrownBy(() -> build("x-member")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("component must not contain the word \"member\" after a '-'")
        .hasMessageContaining("\"x-member\"");
    assertThatThrownBy(() -> build("x-member-y")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"x-member-y\"");
  }

  @Test
  void twoAcceptedComponentsNeverShareALeaseNameAndEveryRejectedOneCanCollide() {
    List<String> components = joined(WORDS, 4, "-");
    List<String> replicaIds = new ArrayList<>(joined(WORDS, 4, "-"));
    replicaIds.addAll(joined(new String[] {"x", "member", "shard-1", "1"}, 3, "."));
    Map<String, String> owner = new HashMap<>(); // lease name -> "component key"
    Map<String, Set<String>> collisions = new HashMap<>(); // component -> components it collides with
    for (String component : components) {
      List<String> names = new ArrayList<>();
      for (String id : replicaIds) {
        names.add(LeaseNames.memberName(component, id));
      }
      for (int shard = 0; shard < SHARDS; shard++) {
        names.add(LeaseNames.shardName(component, shard));
      }
      for (String name : names) {
        String before = owner.putIfAbsent(name, component);
        if (before != null && !before.equals(component)) {
          collisions.computeIfAbsent(component, c -> new LinkedHashSet<>()).add(before);
          collisions.computeIfAbsent(before, c -> new LinkedHashSet<>()).add(component);
        }
      }
    }
    assertThat(collisions).as("the generated names do collide somewhere").isNotEmpty();
    int rejected = 0;
    for (String component : components) {
      boolean accepted = accepts(component);
      if (!accepted) {
        rejected++;
        assertThat(collisions).as("a rejected component can collide: %s", component).containsKey(component);
      } else {
        for (String other : collisions.getOrDefault(component, Set.of())) {
          assertThat(accepts(other)).as("%s collides with %s; one of them must be rejected", component, other)
              .isFalse();
        }
      }
    }
    assertThat(rejected).as("rejected components").isPositive().isLessThan(components.size());
  }

  /** Every join of 1 to {@code max} words with {@code sep}, each a valid DNS label or subdomain. */
  private static List<String> joined(String[] words, int max, String sep) {
    List<String> out = new ArrayList<>();
    List<String> layer = List.of("");
    for (int n = 1; n <= max; n++) {
      List<String> next = new ArrayList<>();
      for (String prefix : layer) {
        for (String w : words) {
          next.add(prefix.isEmpty() ? w : prefix + sep + w);
        }
      }
      out.addAll(next);
      layer = next;
    }
    return out;
  }

  private static boolean accepts(String component) {
    try {
      build(component);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static void build(String component) {
    Coordinator.builder().component(component).replicaId("r").leaseStore(new InMemoryLeaseStore()).build().close();
  }
}
