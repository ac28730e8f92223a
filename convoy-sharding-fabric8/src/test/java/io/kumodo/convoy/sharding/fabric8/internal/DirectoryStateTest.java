/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.fabric8.ShardDirectory.Owner;
import io.kumodo.convoy.sharding.fabric8.ShardDirectory;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The owner rules of a {@link ShardDirectory}, on a hand-driven clock and hand-made records. */
class DirectoryStateTest {
  private static final String C = "convoy-cm";
  private static final Duration LEASE = Duration.ofSeconds(30);

  private long now;
  private final DirectoryState state = new DirectoryState(4, () -> now);
  private final List<String> changes = new ArrayList<>();
  private int version;

  DirectoryStateTest() {
    state.subscribe((shard, before, after) -> changes.add(shard + ":" + name(before) + "->" + name(after)));
  }

  @Test
  void holderOfAHeldLeaseIsTheOwnerWithTheAddressOfItsMemberLease() {
    state.apply("m-a", member("cm-a", Map.of(LeaseAnnotations.ADDRESS, "10.0.0.1:8080")));
    state.apply("s-0", shard(0, "cm-a", Map.of()));
    assertThat(state.ownerOf(0)).contains(new Owner("cm-a", "10.0.0.1:8080"));
    assertThat(state.ownerOf(1)).isEmpty();
    assertThat(changes).containsExactly("0:-->cm-a@10.0.0.1:8080");
  }

  @Test
  void freeAndDrainedLeasesHaveNoOwnerAndDrainedShardsAreListed() {
    state.apply("s-0", shard(0, "", Map.of()));
    state.apply("s-1", shard(1, "cm-a", Map.of(LeaseAnnotations.DRAINED, "true")));
    assertThat(state.ownerOf(0)).isEmpty();
    assertThat(state.ownerOf(1)).isEmpty();
    assertThat(state.drained()).containsExactly(1);
    state.apply("s-1", null);
    assertThat(state.drained()).isEmpty();
  }

  @Test
  void ownerExpiresWhenItsLeaseIsObservedUnchangedForTheLeaseDurationAndARenewalRestoresIt() {
    state.apply("s-2", shard(2, "cm-a", Map.of()));
    now += LEASE.toNanos() - 1;
    assertThat(state.ownerOf(2)).isPresent();
    now += 1;
    assertThat(state.ownerOf(2)).as("read exactly at expiry").isEmpty();
    long next = state.sweep();
    assertThat(next).isEqualTo(Long.MAX_VALUE);
    assertThat(changes).containsExactly("2:-->cm-a", "2:cm-a->-");

    state.apply("s-2", shard(2, "cm-a", Map.of())); // a new version: renewed
    assertThat(state.ownerOf(2)).isPresent();
    assertThat(changes).endsWith("2:-->cm-a");
  }

  @Test
  void aShardLeaseObservedUnchangedForItsDurationHasNoOwnerWhileItsHoldersMemberLeaseIsWritten() {
    state.apply("m-a", member("cm-a", Map.of()));
    state.apply("s-1", shard(1, "cm-a", Map.of()));
    now += LEASE.toNanos() / 2;
    state.apply("m-a", member("cm-a", Map.of())); // a new version of the member lease only
    assertThat(state.ownerOf(1)).contains(new Owner("cm-a", null));
    now += LEASE.toNanos() / 2;
    state.apply("m-a", member("cm-a", Map.of()));
    assertThat(state.ownerOf(1)).as("the shard lease observed unchanged for its duration").isEmpty();
    state.sweep();
    assertThat(changes).containsExactly("1:-->cm-a", "1:cm-a->-");
  }

  @Test
  void aShardWithoutALiveOwnerCountsFromWhenItWasFirstObservedWithoutOneAndAFreeAfterExpiryKeepsThatTime() {
    assertThat(state.unownedShards()).as("no lease observed yet").isEqualTo(4);
    for (int shard = 0; shard < 4; shard++) {
      state.apply("s-" + shard, shard(shard, "cm-a", Map.of()));
    }
    assertThat(state.unownedShards()).isZero();
    assertThat(state.oldestUnowned()).isZero();

    now += Duration.ofSeconds(10).toNanos();
    state.apply("s-0", shard(0, "", Map.of())); // freed at 10 s
    now += LEASE.toNanos() - Duration.ofSeconds(10).toNanos();
    for (int shard = 0; shard < 3; shard++) {
      state.apply("s-" + shard, shard(shard, shard == 0 ? "" : "cm-a", Map.of())); // renewed at 30 s; 3 not
    }
    assertThat(state.unownedShards()).as("0 free, 3 expired at 30 s").isEqualTo(2);
    assertThat(state.oldestUnowned()).isEqualTo(Duration.ofSeconds(20));

    now += Duration.ofSeconds(5).toNanos();
    state.apply("s-3", shard(3, "", Map.of())); // freed after it expired: still unowned since 30 s
    state.apply("s-0", null); // deleted: still unowned since 10 s
    assertThat(state.oldestUnowned()).isEqualTo(Duration.ofSeconds(25));
    state.apply("s-0", shard(0, "cm-b", Map.of()));
    assertThat(state.unownedShards()).isEqualTo(1);
    assertThat(state.oldestUnowned()).as("shard 3, since its expiry at 30 s").isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void theSameVersionAgainDoesNotExtendTheOwner() {
    Lease lease = shard(3, "cm-a", Map.of());
    state.apply("s-3", lease);
    now += LEASE.toNanos() / 2;
    state.apply("s-3", lease); // a resync delivers the same version
    now += LEASE.toNanos() / 2;
    assertThat(state.ownerOf(3)).isEmpty();
  }

  @Test
  void aChangedAddressIsAnOwnerChangeAndADeletedMemberLeavesTheAddressNull() {
    state.apply("m-a", member("cm-a", Map.of(LeaseAnnotations.ADDRESS, "10.0.0.1:8080")));
    state.apply("s-0", shard(0, "cm-a", Map.of()));
    state.apply("m-a", member("cm-a", Map.of(LeaseAnnotations.ADDRESS, "10.0.0.9:8080")));
    assertThat(state.ownerOf(0)).contains(new Owner("cm-a", "10.0.0.9:8080"));
    state.apply("m-a", null);
    assertThat(state.ownerOf(0)).contains(new Owner("cm-a", null));
    assertThat(changes).containsExactly("0:-->cm-a@10.0.0.1:8080", "0:cm-a@10.0.0.1:8080->cm-a@10.0.0.9:8080",
        "0:cm-a@10.0.0.9:8080->cm-a");
  }

  @Test
  void membersReportAddressDrainedAndLiveness() {
    state.apply("m-a", member("cm-a", Map.of(LeaseAnnotations.ADDRESS, "a:1", LeaseAnnotations.DRAINED, "true")));
    state.apply("m-b", new Lease(LeaseKey.member(C, "cm-b"), "", LEASE, null, null, 0, Map.of(), "v" + ++version));
    assertThat(state.members()).containsExactly(
        new ShardDirectory.Member("cm-a", "a:1", true, true),
        new ShardDirectory.Member("cm-b", null, false, false));
    now += LEASE.toNanos();
    assertThat(state.members().get(0).live()).isFalse();
  }

  @Test
  void shardLeasesOutsideTheShardCountAreIgnoredAndLookUpsOutsideItThrow() {
    state.apply("s-9", shard(9, "cm-a", Map.of()));
    assertThat(changes).isEmpty();
    assertThatThrownBy(() -> state.ownerOf(4)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> state.ownerOf(-1)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void aThrowingListenerDoesNotStopTheOthers() {
    DirectoryState s = new DirectoryState(1, () -> now);
    List<Integer> heard = new ArrayList<>();
    s.subscribe((shard, before, after) -> {
      throw new IllegalStateException("boom");
    });
    s.subscribe((shard, before, after) -> heard.add(shard));
    s.apply("s-0", shard(0, "cm-a", Map.of()));
    assertThat(heard).containsExactly(0);
  }

  private Lease shard(int shard, String holder, Map<String, String> annotations) {
    return new Lease(LeaseKey.shard(C, shard), holder, LEASE, null, null, 0, annotations, "v" + ++version);
  }

  private Lease member(String id, Map<String, String> annotations) {
    return new Lease(LeaseKey.member(C, id), id, LEASE, null, null, 0, annotations, "v" + ++version);
  }

  private static String name(Optional<Owner> owner) {
    return owner.map(o -> o.replicaId() + (o.address() == null ? "" : "@" + o.address())).orElse("-");
  }
}
