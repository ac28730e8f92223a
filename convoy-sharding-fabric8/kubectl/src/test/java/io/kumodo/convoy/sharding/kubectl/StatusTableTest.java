/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import io.kumodo.convoy.sharding.fabric8.LeaseObjects;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tables of {@code status}, from hand-made Lease objects at a fixed instant. */
class StatusTableTest {
  private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

  @Test
  void membersShowTheirAgeLivenessAndAddress() {
    String table = render(List.of(
        member("cm-a", "10.0.0.1:8080", false, 1),
        member("cm-old", null, false, 120)), "convoy-cm", "convoy-system", 0, NOW);
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("cm-a\\s+1s\\s+live\\s+none\\s+10.0.0.1:8080"));
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("cm-old\\s+2m0s\\s+not live\\s+none\\s+-"));
    assertThat(table).doesNotContain("mismatch");
  }

  @Test
  void drainedShardsAndMembersAreShownAndCounted() {
    String table = render(List.of(
        shard(0, "cm-a", false), shard(1, "", true), shard(2, "cm-a", true),
        member("cm-a", null, true, 1)), "convoy-cm", "convoy-system", 4, NOW);
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("1\\s+-\\s+1s\\s+0\\s+free, drained"));
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("2\\s+cm-a\\s+1s\\s+0\\s+owned, drained"));
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("3\\s+-\\s+-\\s+-\\s+no lease"));
    assertThat(table).contains("2 of 4 shards owned, 2 drained");
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("cm-a\\s+1s\\s+live, drained\\s+none\\s+-"));
    assertThat(table).doesNotContain("mismatch");
  }

  @Test
  void aShardLeaseNotRenewedWithinItsDurationIsExpiredWhileItsHoldersMemberLeaseIsLive() {
    Lease stale = shard(0, "cm-a", false);
    stale.getSpec().setRenewTime(NOW.minusSeconds(31).atZone(ZoneOffset.UTC));
    String table = render(List.of(stale, shard(1, "cm-a", false), member("cm-a", null, false, 1)), "convoy-cm",
        "convoy-system", 2, NOW);
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("0\\s+cm-a\\s+31s\\s+0\\s+expired"));
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("1\\s+cm-a\\s+1s\\s+0\\s+owned"));
    assertThat(table).contains("1 of 2 shards owned");
  }

  @Test
  void aMemberLeaseMarkedReleasedByAPeerAfterItExpiredSaysExpiredAndByWhom() {
    Lease crashed = member("cm-b", null, false, 40);
    crashed.getSpec().setHolderIdentity("");
    crashed.getMetadata().getAnnotations().put(LeaseAnnotations.EXPIRED_BY, "cm-a");
    Lease closed = member("cm-c", null, false, 5);
    closed.getSpec().setHolderIdentity("");
    String table = render(List.of(member("cm-a", null, false, 1), crashed, closed),
        "convoy-cm", "convoy-system", 0, NOW);
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("cm-b\\s+40s\\s+expired \\(marked by cm-a\\)\\s+none\\s+-"));
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("cm-c\\s+5s\\s+released\\s+none\\s+-"));
  }

  @Test
  void membersThatAreNotReleasedPublishingDifferentShardCountsAreFlaggedAndNamed() {
    Lease old = member("cm-a", null, false, 1);
    old.getMetadata().getAnnotations().put(LeaseAnnotations.SHARDS, "16");
    Lease fresh = member("cm-b", null, false, 1);
    fresh.getMetadata().getAnnotations().put(LeaseAnnotations.SHARDS, "32");
    Lease gone = member("cm-c", null, false, 5);
    gone.getMetadata().getAnnotations().put(LeaseAnnotations.SHARDS, "8");
    gone.getSpec().setHolderIdentity("");
    String table = render(List.of(old, fresh, gone), "convoy-cm", "convoy-system", 0, NOW);
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("cm-a\\s+1s\\s+live\\s+16 \\(!\\)\\s+-"));
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("cm-b\\s+1s\\s+live\\s+32 \\(!\\)\\s+-"));
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("cm-c\\s+5s\\s+released\\s+8\\s+-"));
    assertThat(table).contains("shard count mismatch among members that are not released (cm-a=16, cm-b=32): no "
        + "replica owns a shard until every replica with another --shards has stopped");
  }

  @Test
  void withoutShardsTheCountTheMembersPublishBoundsTheTableAndShardsWithoutALeaseAreRows() {
    Lease released = publishing(member("cm-old", null, false, 5), "4");
    released.getSpec().setHolderIdentity("");
    String table = render(List.of(shard(0, "cm-a", false), shard(1, "cm-b", false), shard(9, "", false),
        publishing(member("cm-a", null, false, 1), "8"), publishing(member("cm-b", null, false, 1), "8"),
        released), "convoy-cm", "convoy-system", 0, NOW);
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("7\\s+-\\s+-\\s+-\\s+no lease"));
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("9\\s+-\\s+1s\\s+0\\s+free \\(outside the shard count\\)"));
    assertThat(table).as("a released member's count is not the replicas' count")
        .contains("2 of 8 shards owned", "shard count 8: published by the members (--shards N sets it)")
        .doesNotContain("mismatch");
  }

  @Test
  void aCountPublishedWithAShardByModeBoundsTheTableAndADifferentModeIsAMismatch() {
    String table = render(List.of(shard(0, "cm-a", false),
        publishing(member("cm-a", null, false, 1), "uid:8"), publishing(member("cm-b", null, false, 1), "uid:8")),
        "convoy-cm", "convoy-system", 0, NOW);
    assertThat(table).contains("1 of 8 shards owned").doesNotContain("mismatch");
    String mixed = render(List.of(shard(0, "cm-a", false),
        publishing(member("cm-a", null, false, 1), "uid:8"), publishing(member("cm-b", null, false, 1), "8")),
        "convoy-cm", "convoy-system", 0, NOW);
    assertThat(mixed).contains("1 of 8 shards owned", "shard count mismatch among members that are not released "
        + "(cm-a=uid:8, cm-b=8)");
  }

  @Test
  void membersPublishingDifferentCountsAreNamedUnderTheTableWhichGoesUpToTheLargest() {
    String table = render(List.of(shard(0, "cm-a", false),
        publishing(member("cm-a", null, false, 1), "4"), publishing(member("cm-b", null, false, 1), "6")),
        "convoy-cm", "convoy-system", 0, NOW);
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("5\\s+-\\s+-\\s+-\\s+no lease"));
    assertThat(table).contains("1 of 6 shards owned",
        "shard count 6: the largest the members publish; they disagree (cm-a=4, cm-b=6; --shards N sets it)",
        "shard count mismatch among members that are not released (cm-a=4, cm-b=6)");
    StatusShardCount count = count(List.of(publishing(member("cm-a", null, false, 1), "4"),
        publishing(member("cm-b", null, false, 1), "6"), member("cm-c", null, false, 1)));
    assertThat(count.drainable()).as("drain-shard: below the smallest, which no replica deletes").isEqualTo(4);
    assertThat(count.drainLimit()).isEqualTo("the members publish different shard counts (cm-a=4, cm-b=6, cm-c=none) "
        + "and a replica deletes the Lease of a shard beyond its own; --shards N sets it");
  }

  @Test
  void theShardsFlagWinsOverTheMembersCountAndMembersThatPublishNoneLeaveItToTheLeases() {
    List<Lease> publishing8 = List.of(shard(0, "cm-a", false), publishing(member("cm-a", null, false, 1), "8"));
    assertThat(render(publishing8, "convoy-cm", "convoy-system", 3, NOW)).contains("1 of 3 shards owned",
        "shard count 3: from --shards");
    assertThat(count(publishing8).drainLimit()).isEqualTo("shard count 8, published by the members; --shards N sets it");
    assertThat(render(List.of(shard(0, "cm-a", false), member("cm-a", null, false, 1)), "convoy-cm",
        "convoy-system", 0, NOW)).contains("shard count 1: inferred from the shard leases (--shards N sets it)");
  }

  @Test
  void withoutShardsTheCountIsInferredFromTheLeasesAndAFreeDrainedTopShardStaysInRange() {
    String table = render(List.of(shard(0, "cm-a", false), shard(1, "cm-a", false), shard(2, "", true),
        shard(40000, "", false), member("cm-a", null, false, 1)), "convoy-cm", "convoy-system", 0, NOW);
    assertThat(table.lines()).anySatisfy(l -> assertThat(l).matches("2\\s+-\\s+1s\\s+0\\s+free, drained"));
    assertThat(table.lines()).anySatisfy(l -> assertThat(l)
        .matches("40000\\s+-\\s+1s\\s+0\\s+free \\(outside the shard count\\)"));
    assertThat(table).contains("2 of 3 shards owned, 1 drained",
        "shard count 3: inferred from the shard leases (--shards N sets it)");
    assertThat(table.lines().count()).isLessThan(20);
  }

  @Test
  void withoutShardsAndWithoutShardLeasesTheCountIsUnknownAndSaidSo() {
    String table = render(List.of(member("cm-a", null, false, 1)), "convoy-cm", "convoy-system", 0, NOW);
    assertThat(table).contains("0 of 0 shards owned",
        "shard count unknown: no shard lease to infer it from (--shards N sets it)");
  }

  /** The tables for {@code leases}, each read as the coordinators read it. */
  private static String render(List<Lease> leases, String component, String namespace, int shardCount, Instant now) {
    KubernetesSerialization serialization = new KubernetesSerialization();
    List<LeaseObjects.Read> reads = leases.stream().map(l -> LeaseObjects.read(serialization, component,
        serialization.convertValue(l, GenericKubernetesResource.class))).toList();
    StatusLeases sorted = StatusLeases.of(reads, component);
    return StatusTable.render(sorted, component, namespace, StatusShardCount.of(shardCount, sorted, now), now);
  }

  /** The count {@code status} works with, without {@code --shards}, for {@code leases}. */
  private static StatusShardCount count(List<Lease> leases) {
    KubernetesSerialization serialization = new KubernetesSerialization();
    return StatusShardCount.of(0, StatusLeases.of(leases.stream().map(l -> LeaseObjects.read(serialization, "convoy-cm",
        serialization.convertValue(l, GenericKubernetesResource.class))).toList(), "convoy-cm"), NOW);
  }

  /** {@code member} publishing shard count {@code shards}, as a replica writes it. */
  private static Lease publishing(Lease member, String shards) {
    member.getMetadata().getAnnotations().put(LeaseAnnotations.SHARDS, shards);
    return member;
  }

  static Lease shard(int i, String holder, boolean drained) {
    Map<String, String> annotations = drained ? Map.of(LeaseAnnotations.DRAINED, "true") : Map.of();
    return new LeaseBuilder().withNewMetadata().withName("convoy-cm-shard-" + i)
        .withLabels(Map.of(LeaseNames.COMPONENT_LABEL, "convoy-cm", LeaseNames.ROLE_LABEL, "shard",
            LeaseNames.SHARD_LABEL, Integer.toString(i)))
        .withAnnotations(annotations).endMetadata()
        .withNewSpec().withHolderIdentity(holder).withLeaseDurationSeconds(30).withLeaseTransitions(0)
        .withRenewTime(NOW.minusSeconds(1).atZone(ZoneOffset.UTC)).endSpec().build();
  }

  static Lease member(String id, String address, boolean drained, int ageSeconds) {
    Map<String, String> annotations = new HashMap<>();
    if (address != null) {
      annotations.put(LeaseAnnotations.ADDRESS, address);
    }
    if (drained) {
      annotations.put(LeaseAnnotations.DRAINED, "true");
    }
    return new LeaseBuilder().withNewMetadata().withName("convoy-cm-member-" + id)
        .withLabels(Map.of(LeaseNames.COMPONENT_LABEL, "convoy-cm", LeaseNames.ROLE_LABEL, "member"))
        .withAnnotations(annotations).endMetadata()
        .withNewSpec().withHolderIdentity(id).withLeaseDurationSeconds(30)
        .withRenewTime(NOW.minusSeconds(ageSeconds).atZone(ZoneOffset.UTC)).endSpec().build();
  }
}
