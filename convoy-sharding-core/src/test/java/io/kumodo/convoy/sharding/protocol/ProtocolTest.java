/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.protocol.Protocol.Answer;
import io.kumodo.convoy.sharding.protocol.Protocol.Outcome;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Table tests of the protocol as a pure state machine: (state, listing) to (state, writes), and
 * (state, write, answer) to state. No store, no threads, no virtual time: every input is a value.
 */
class ProtocolTest {
  static final long L = Duration.ofSeconds(30).toNanos();
  static final long R = Duration.ofSeconds(10).toNanos();
  static final Options OPTIONS =
      new Options("c", "me", "inc-1", 1, io.kumodo.convoy.sharding.ShardBy.NAME, Duration.ofSeconds(30), R, io.kumodo.convoy.sharding.Assignment.modulo());
  static final Protocol PROTOCOL = new Protocol(OPTIONS);
  static final Instant WALL = Instant.parse("2026-01-01T00:00:00Z");
  static final long NOW = 1_000 * R;

  /** The shard lease of shard 0, held by {@code holder} (empty: free) with {@code transitions}. */
  static Lease lease(String holder, long transitions, Map<String, String> annotations) {
    return new Lease(LeaseKey.shard("c", 0), holder, Duration.ofSeconds(30), WALL, WALL, transitions, annotations,
        "v" + transitions);
  }

  static final Lease FREED = lease("", 3, Map.of(LeaseAnnotations.FREED_BY, "other"));
  static final Lease CLEARED = lease("", 3, Map.of());
  static final Lease OTHERS = lease("other", 3, Map.of());
  static final Lease MINE = lease("me", 4, Map.of(LeaseAnnotations.SHARDS, "1", LeaseAnnotations.INCARNATION, "inc-1"));

  /** A live peer sorted before "me": with it, "me" is at k = 1 of N = 2 and does not want shard 0. */
  static final Lease PEER = new Lease(LeaseKey.member("c", "a-peer"), "a-peer", Duration.ofSeconds(30), WALL, WALL, 0,
      Map.of(LeaseAnnotations.SHARDS, "1"), "p1");

  /** Every listed version seen just now. */
  static final Listing.Ages JUST_SEEN = new Listing.Ages() {
    @Override
    public long age(Lease lease) {
      return 0;
    }

    @Override
    public boolean firstVersion(Lease lease) {
      return false;
    }
  };

  /**
   * A listing at NOW: shard 0 wanted (this replica the only live member) or not (a live peer comes
   * first), listed as {@code listed}, which may be taken in {@code left} ns.
   */
  static Listing listing(boolean wanted, Lease listed, long left, boolean regular, long renewedAt) {
    List<Lease> leases = new java.util.ArrayList<>();
    if (listed != null) {
      leases.add(listed);
    }
    if (!wanted) {
      leases.add(PEER);
    }
    return new Listing(OPTIONS, NOW, WALL, regular, leases, leases, false, false, JUST_SEEN, lease -> left,
        new long[] {renewedAt}, L);
  }

  static Listing listing(boolean wanted, Lease listed, long left) {
    return listing(wanted, listed, left, true, NOW - R);
  }

  static Memory memory() {
    return Memory.initial(0);
  }

  static ShardState free() {
    return new ShardState.Free(memory());
  }

  static ShardState held() {
    return new ShardState.Held(memory().wrote(FencingTokens.of(MINE)), MINE);
  }

  static ShardState releasing(long since) {
    return new ShardState.Releasing(memory().wrote(FencingTokens.of(MINE)).released(since), MINE);
  }

  record Row(String sentence, ShardState state, Listing in, Class<? extends ShardState> next,
      List<Write.Kind> acquires, Write.Kind ifIdle, Write.Kind ifBusy) {
    @Override
    public String toString() {
      return sentence;
    }
  }

  static Stream<Arguments> decisions() {
    return Stream.of(
        new Row("a wanted lease freed by its holder is taken at once",
            free(), listing(true, FREED, L), ShardState.Wanted.class, List.of(Write.Kind.TAKE), null, null),
        new Row("a wanted lease cleared by someone else waits out its expiry",
            free(), listing(true, CLEARED, L), ShardState.Wanted.class, List.of(), null, null),
        new Row("a wanted lease held by a live peer is not taken",
            free(), listing(true, OTHERS, 1), ShardState.Wanted.class, List.of(), null, null),
        new Row("a wanted lease unchanged for its expiry is taken",
            free(), listing(true, OTHERS, 0), ShardState.Wanted.class, List.of(Write.Kind.TAKE), null, null),
        new Row("a wanted missing lease is created",
            free(), listing(true, null, 0), ShardState.Wanted.class, List.of(Write.Kind.CREATE), null, null),
        new Row("a missing lease nobody wants yet is created too, so its create wait runs",
            free(), listing(false, null, 0), ShardState.Free.class, List.of(Write.Kind.CREATE), null, null),
        new Row("a lease of this process that its state no longer holds and does not want is freed once idle",
            free(), listing(false, MINE, L), ShardState.Releasing.class, List.of(), Write.Kind.FREE, Write.Kind.KEEP),
        new Row("a wanted lease of this process that its state no longer holds is retaken at once, not left to expire",
            free(), listing(true, MINE, L), ShardState.Wanted.class, List.of(Write.Kind.RETAKE), null, null),
        new Row("a wanted lease naming this replica under another incarnation waits out its expiry",
            free(), listing(true, lease("me", 4, Map.of(LeaseAnnotations.INCARNATION, "inc-0")), L),
            ShardState.Wanted.class, List.of(), null, null),
        new Row("a lease naming this replica under another incarnation is left to expire",
            free(), listing(false, lease("me", 4, Map.of(LeaseAnnotations.INCARNATION, "inc-0")), L),
            ShardState.Free.class, List.of(), null, null),
        new Row("a held wanted lease is renewed at a regular tick",
            held(), listing(true, MINE, L), ShardState.Held.class, List.of(Write.Kind.RENEW), null, null),
        new Row("a held lease renewed less than a renew interval ago is not renewed at an extra tick",
            held(), listing(true, MINE, L, false, NOW - R / 2), ShardState.Held.class, List.of(), null, null),
        new Row("a held lease renewed a renew interval ago is renewed at an extra tick",
            held(), listing(true, MINE, L, false, NOW - R), ShardState.Held.class, List.of(Write.Kind.RENEW), null,
            null),
        new Row("a held lease no longer wanted is released and freed once no reconcile runs, kept while one does",
            held(), listing(false, MINE, L), ShardState.Releasing.class, List.of(), Write.Kind.FREE, Write.Kind.KEEP),
        new Row("a released lease whose reconciles outlast a lease duration is freed anyway",
            releasing(NOW - L), listing(false, MINE, L), ShardState.Releasing.class, List.of(), Write.Kind.FREE,
            Write.Kind.FREE),
        new Row("a released lease wanted again before it was freed is taken back by a renewal",
            releasing(NOW - R), listing(true, MINE, L), ShardState.Wanted.class, List.of(Write.Kind.RENEW), null,
            null))
        .map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("decisions")
  void eachStateDecidesItsNextStepFromTheListing(Row row) {
    Plan plan = PROTOCOL.decide(row.in(), new ShardState[] {row.state()});

    assertThat(plan.states()[0]).isInstanceOf(row.next());
    assertThat(plan.acquires()).extracting(Write::kind).containsExactlyElementsOf(row.acquires());
    if (row.ifIdle() == null) {
      assertThat(plan.releases()).isEmpty();
    } else {
      assertThat(plan.releases()).singleElement().satisfies(r -> {
        assertThat(r.write(false).kind()).isEqualTo(row.ifIdle());
        assertThat(r.write(true).kind()).isEqualTo(row.ifBusy());
      });
    }
  }

  @Test
  void aTakeWritesTheNextTransitionWithoutTheFreeMarkAndPublishesTheShardCountAndIncarnation() {
    Plan plan = PROTOCOL.decide(listing(true, FREED, L), new ShardState[] {free()});

    Lease request = plan.acquires().get(0).request();
    assertThat(request.holder()).isEqualTo("me");
    assertThat(request.transitions()).isEqualTo(4);
    assertThat(request.annotations()).doesNotContainKey(LeaseAnnotations.FREED_BY)
        .containsEntry(LeaseAnnotations.SHARDS, "1").containsEntry(LeaseAnnotations.INCARNATION, "inc-1");
  }

  @Test
  void aLeaseThatMayNotBeTakenYetAsksForATickWhenItMay() {
    Plan plan = PROTOCOL.decide(listing(true, OTHERS, 5), new ShardState[] {free()});

    assertThat(plan.wakeAt()).isEqualTo(NOW + 5);
  }

  @Test
  void aCreatedLeaseIsHeldButNotOwnedUntilItsCreateWaitEnds() {
    Plan plan = PROTOCOL.decide(listing(true, null, 0), new ShardState[] {free()});
    Write create = plan.acquires().get(0);
    ShardState[] states = {PROTOCOL.answered(plan.states()[0], create, new Answer(Outcome.OK, MINE, NOW, NOW))};

    assertThat(states[0]).isInstanceOf(ShardState.Held.class);
    assertThat(Protocol.owned(states, NOW + L - 1).shards()).isEmpty();
    assertThat(Protocol.owned(states, NOW + L - 1).wakeAt()).isEqualTo(NOW + L);
    assertThat(Protocol.owned(states, NOW + L).shards()).containsExactly(0);
  }

  @Test
  void aTakeAnsweredWithAnErrorIsRetakenAtTheNextTickWhenTheListingShowsIt() {
    Plan plan = PROTOCOL.decide(listing(true, FREED, L), new ShardState[] {free()});
    Write take = plan.acquires().get(0);
    ShardState after = PROTOCOL.answered(plan.states()[0], take, new Answer(Outcome.ERROR, null, NOW, NOW));

    Lease landed = take.request().withResourceVersion("v9");
    Plan next = PROTOCOL.decide(listing(true, landed, L), new ShardState[] {after});
    assertThat(next.acquires()).extracting(Write::kind).containsExactly(Write.Kind.RETAKE);
  }

  /**
   * A create answered with an error whose Lease a lagging listing shows only after the tick that
   * looked for it once: retaken as this process's own Lease, it is still not owned before its
   * create wait ends (a peer that missed the delete may still own the shard; simulation seeds 615
   * and 1293 had two owners when it was taken instead).
   */
  @Test
  void aCreateAnsweredWithAnErrorAndListedOnlyLaterIsRetakenButNotOwnedBeforeItsCreateWaitEnds() {
    Plan plan = PROTOCOL.decide(listing(true, null, 0), new ShardState[] {free()});
    Write create = plan.acquires().get(0);
    ShardState after = PROTOCOL.answered(plan.states()[0], create, new Answer(Outcome.ERROR, null, NOW, NOW));
    Plan missed = PROTOCOL.decide(listing(true, null, 0), new ShardState[] {after});
    Write again = missed.acquires().get(0);
    after = PROTOCOL.answered(missed.states()[0], again, new Answer(Outcome.LOST, null, NOW, NOW));

    Lease landed = create.request().withResourceVersion("v9");
    Plan next = PROTOCOL.decide(listing(true, landed, L), new ShardState[] {after});
    Write retake = next.acquires().get(0);
    ShardState[] states = {PROTOCOL.answered(next.states()[0], retake,
        new Answer(Outcome.OK, retake.request().withResourceVersion("v10"), NOW, NOW))};

    assertThat(states[0]).isInstanceOf(ShardState.Held.class);
    assertThat(Protocol.owned(states, NOW + L - 1).shards()).isEmpty();
    assertThat(Protocol.owned(states, NOW + L).shards()).containsExactly(0);
    assertThat(retake.kind()).isEqualTo(Write.Kind.RETAKE);
  }

  /** A short while: much less than half a renew interval. */
  static final long SOON = 20_000_000L;

  @Test
  void aConflictWithoutNewsKeepsTheShardHeldAndWritesItAgainAtTheNextExtraTick() {
    ShardState h = held();
    Write renew = PROTOCOL.decide(listing(true, MINE, L), new ShardState[] {h}).acquires().get(0);
    ShardState after = PROTOCOL.answered(h, renew, new Answer(Outcome.NO_NEWS, null, NOW, NOW));

    assertThat(after).isInstanceOf(ShardState.Held.class);
    assertThat(after.memory().lookAgain()).isTrue();
    Plan next = PROTOCOL.decide(listing(true, MINE, L, false, NOW), new ShardState[] {after});
    assertThat(next.acquires()).extracting(Write::kind).containsExactly(Write.Kind.RENEW);
  }

  /**
   * A released shard whose Lease is kept for a running reconcile, while this replica owns nothing
   * (its listing does not show its member lease yet, so no write extends the owned time): a keep
   * that succeeded is not sent again until half a renew interval later.
   */
  @Test
  void aKeepThatSucceededIsNotSentAgainAtEveryExtraTickWhileTheOwnedTimeStandsStill() {
    ShardState r = releasing(NOW - R);
    Write keep = PROTOCOL.decide(listing(false, MINE, L, false, NOW - 2 * R), new ShardState[] {r}).releases().get(0)
        .write(true);
    assertThat(keep.kind()).isEqualTo(Write.Kind.KEEP);
    ShardState kept = PROTOCOL.answered(r, keep, new Answer(Outcome.OK, MINE, NOW - SOON, NOW - SOON));

    Plan next = PROTOCOL.decide(listing(false, MINE, L, false, NOW - 2 * R), new ShardState[] {kept});
    assertThat(next.releases().get(0).write(true)).isNull();
  }

  @Test
  void aRenewalThatMeetsAnotherHoldingLosesTheShard() {
    ShardState h = held();
    Write renew = PROTOCOL.decide(listing(true, MINE, L), new ShardState[] {h}).acquires().get(0);

    assertThat(PROTOCOL.answered(h, renew, new Answer(Outcome.LOST, null, NOW, NOW))).isInstanceOf(ShardState.Free.class);
  }

  @Test
  void aFreeAnsweredOkDropsTheLease() {
    Plan plan = PROTOCOL.decide(listing(false, MINE, L), new ShardState[] {held()});
    Write free = plan.releases().get(0).write(false);
    ShardState after = PROTOCOL.answered(plan.states()[0], free, new Answer(Outcome.OK, FREED, NOW, NOW));

    assertThat(after).isInstanceOf(ShardState.Free.class);
    assertThat(after.lease()).isNull();
    assertThat(free.request().annotations()).containsEntry(LeaseAnnotations.FREED_BY, "me");
  }

  @Test
  void stepsTwoToFourFindTheLiveMembersInOrderAndWantNothingWhileAnotherShardCountIsPublished() {
    Lease sixteen = PEER.withAnnotations(Map.of(LeaseAnnotations.SHARDS, "16"));
    List<Lease> leases = List.of(FREED, sixteen);
    Listing in = new Listing(OPTIONS, NOW, WALL, true, leases, leases, false, false, JUST_SEEN, lease -> 0,
        new long[] {0}, L);

    Plan plan = PROTOCOL.decide(in, new ShardState[] {free()});
    assertThat(plan.live()).containsExactly("a-peer", "me");
    assertThat(plan.k()).isEqualTo(1);
    assertThat(plan.others()).containsEntry("a-peer", "16");
    assertThat(plan.wanted().isEmpty()).isTrue();
    assertThat(plan.acquires()).isEmpty();
  }

  @Test
  void aPeerMemberLeaseUnchangedForALeaseDurationIsNotLiveAndIsToBeMarkedAndAfterTenToBeDeleted() {
    List<Lease> leases = List.of(PEER);
    Listing.Ages aged = new Listing.Ages() {
      @Override
      public long age(Lease lease) {
        return L;
      }

      @Override
      public boolean firstVersion(Lease lease) {
        return false;
      }
    };
    Plan plan = PROTOCOL.decide(new Listing(OPTIONS, NOW, WALL, true, leases, leases, false, false, aged, l -> 0,
        new long[] {0}, L), new ShardState[] {free()});
    assertThat(plan.live()).containsExactly("me");
    assertThat(plan.expiredMembers()).containsExactly(PEER);

    Listing.Ages dead = new Listing.Ages() {
      @Override
      public long age(Lease lease) {
        return 10 * L;
      }

      @Override
      public boolean firstVersion(Lease lease) {
        return false;
      }
    };
    Plan later = PROTOCOL.decide(new Listing(OPTIONS, NOW, WALL, true, leases, leases, false, false, dead, l -> 0,
        new long[] {0}, L), new ShardState[] {free()});
    assertThat(later.staleMembers()).containsExactly(PEER);
  }

  @Test
  void aLeaseCreatedForAnotherReplicaIsKeptNotFreedUntilItsCreateWaitEndsAndAsksForATickThen() {
    Memory creating = memory().created(NOW - R, L).wrote(FencingTokens.of(MINE));
    Plan plan = PROTOCOL.decide(listing(false, MINE, L), new ShardState[] {new ShardState.Held(creating, MINE)});

    assertThat(plan.states()[0]).isInstanceOf(ShardState.Releasing.class);
    assertThat(plan.releases()).singleElement().satisfies(r -> {
      assertThat(r.write(false).kind()).isEqualTo(Write.Kind.KEEP);
      assertThat(r.write(true).kind()).isEqualTo(Write.Kind.KEEP);
    });
    assertThat(plan.wakeAt()).isEqualTo(NOW - R + L);
  }

  @Test
  void aDrainedReplicaCreatesNoLeaseItDoesNotWant() {
    Listing drained = new Listing(OPTIONS, NOW, WALL, true, List.of(), List.of(), true, false, JUST_SEEN, l -> 0,
        new long[] {0}, L);

    Plan plan = PROTOCOL.decide(drained, new ShardState[] {free()});
    assertThat(plan.live()).isEmpty();
    assertThat(plan.acquires()).isEmpty();
  }

  @Test
  void aTickWithoutAListingRenewsWhatItHoldsAndNothingElse() {
    Plan plan = PROTOCOL.renewHeld(WALL, new ShardState[] {held()});

    assertThat(plan.acquires()).extracting(Write::kind).containsExactly(Write.Kind.RENEW);
    assertThat(PROTOCOL.renewHeld(WALL, new ShardState[] {free()}).acquires()).isEmpty();
  }

  @Test
  void aProtocolDecidingTickAfterTickWantsWhatAFreshOneWantsAsRecordsAndMembersChangeAndComeBack() {
    Options o = new Options("c", "me", "inc-1", 4, io.kumodo.convoy.sharding.ShardBy.NAME, Duration.ofSeconds(30), R,
        io.kumodo.convoy.sharding.Assignment.balanced());
    Protocol again = new Protocol(o);
    List<Lease> free = new java.util.ArrayList<>();
    for (int shard = 0; shard < 4; shard++) {
      free.add(new Lease(LeaseKey.shard("c", shard), "", Duration.ofSeconds(30), WALL, WALL, 3,
          Map.of(LeaseAnnotations.FREED_BY, "other"), "v" + shard));
    }
    List<Lease> drained = new java.util.ArrayList<>(free); // shard 2 drained: another record, another version
    drained.set(2, new Lease(LeaseKey.shard("c", 2), "", Duration.ofSeconds(30), WALL, WALL, 3,
        Map.of(LeaseAnnotations.FREED_BY, "other", LeaseAnnotations.DRAINED, "true"), "v9"));
    Lease peer = new Lease(LeaseKey.member("c", "a-peer"), "a-peer", Duration.ofSeconds(30), WALL, WALL, 0,
        Map.of(LeaseAnnotations.SHARDS, o.published()), "p1");
    List<Lease> drainedWithPeer = new java.util.ArrayList<>(drained);
    drainedWithPeer.add(peer);

    List<java.util.BitSet> wanted = new java.util.ArrayList<>();
    for (List<Lease> leases : List.of(free, drained, drainedWithPeer, drained, free)) {
      Listing in = new Listing(o, NOW, WALL, true, leases, leases, false, false, JUST_SEEN, lease -> 0L,
          new long[4], L);
      java.util.BitSet w = again.decide(in, again.initial()).wanted();
      Protocol fresh = new Protocol(o);
      assertThat(w).isEqualTo(fresh.decide(in, fresh.initial()).wanted());
      wanted.add(w);
    }
    assertThat(wanted.get(0).stream()).containsExactly(0, 1, 2, 3);
    assertThat(wanted.get(1).stream()).containsExactly(0, 1, 3); // the drained record read, not the one before
    assertThat(wanted.get(2).cardinality()).isBetween(1, 2); // a peer shares the three
    assertThat(wanted.get(3)).isEqualTo(wanted.get(1));
    assertThat(wanted.get(4)).isEqualTo(wanted.get(0));
  }
}
