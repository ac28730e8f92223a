/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.josdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.config.informer.InformerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.filter.GenericFilter;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Sharding#register} combines convoy's ownership filter with the filters the user
 * configured, by annotation or by overrides, and keeps the user's event sources. Two replicas in
 * virtual time divide four shards; the test looks at replica a's registered controller.
 */
class ShardingFiltersTest {
  private final VirtualTime time = new VirtualTime();
  private final InMemoryLeaseStore store = new InMemoryLeaseStore(time.clock());
  private final Coordinator a = replica("a");
  private final Coordinator b = replica("b");
  private final KubernetesClient client = new KubernetesClientBuilder()
      .withConfig(new ConfigBuilder().withMasterUrl("http://127.0.0.1:1").build()).build();
  private final Operator operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
  private final ShardOf<ConfigMap> shards = ShardOf.byName(a);

  private ConfigMap owned;
  private ConfigMap ownedPaused;
  private ConfigMap unowned;
  private ConfigMap unownedPaused;

  @BeforeEach
  void twoReplicasDivideTheShards() {
    a.start();
    b.start();
    time.advance(Duration.ofSeconds(60)); // a fresh component: leases are created after a lease duration
    assertThat(a.ownedShards()).hasSize(2);
    owned = configMap(true, false);
    ownedPaused = configMap(true, true);
    unowned = configMap(false, false);
    unownedPaused = configMap(false, true);
  }

  @AfterEach
  void stop() {
    a.close();
    b.close();
    client.close();
  }

  @Test
  void aGenericFilterOfTheReconcilersAnnotationStaysRejectingOnOwnedShards() {
    InformerConfiguration<ConfigMap> filters = register(new AnnotatedReconciler(), c -> {
    });

    assertThat(filters.getGenericFilter().accept(ownedPaused)).isFalse();
    assertThat(filters.getGenericFilter().accept(owned)).isTrue();
    assertThat(filters.getGenericFilter().accept(unowned)).isFalse();
    assertThat(filters.getGenericFilter().accept(unownedPaused)).isFalse();
  }

  @Test
  void addAndUpdateFiltersSetInTheOverridesStayRejectingOnOwnedShards() {
    InformerConfiguration<ConfigMap> filters = register(new PlainReconciler(),
        c -> c.withOnAddFilter(ShardingFiltersTest::notPaused)
            .withOnUpdateFilter((newResource, oldResource) -> notPaused(newResource)));

    assertThat(filters.getOnAddFilter().accept(ownedPaused)).isFalse();
    assertThat(filters.getOnUpdateFilter().accept(ownedPaused, owned)).isFalse();
    assertThat(filters.getOnAddFilter().accept(owned)).isTrue();
    assertThat(filters.getOnUpdateFilter().accept(owned, ownedPaused)).isTrue();
  }

  @Test
  void anUnownedObjectNeverPassesWhateverTheUserFiltersSay() {
    InformerConfiguration<ConfigMap> filters = register(new PlainReconciler(),
        c -> c.withOnAddFilter(r -> true).withOnUpdateFilter((n, o) -> true).withGenericFilter(r -> true));

    assertThat(filters.getOnAddFilter().accept(unowned)).isFalse();
    assertThat(filters.getOnUpdateFilter().accept(unowned, unowned)).isFalse();
    assertThat(filters.getGenericFilter().accept(unowned)).isFalse();
  }

  @Test
  void withoutUserFiltersTheOwnershipFilterAloneDecides() {
    InformerConfiguration<ConfigMap> filters = register(new PlainReconciler(), c -> {
    });

    assertThat(filters.getOnAddFilter().accept(ownedPaused)).isTrue();
    assertThat(filters.getOnAddFilter().accept(unowned)).isFalse();
    assertThat(filters.getOnUpdateFilter().accept(owned, unowned)).as("moved out: its old owner sees it").isTrue();
    assertThat(filters.getGenericFilter().accept(unowned)).isFalse();
  }

  @Test
  void theOverridesOtherThanFiltersAreKept() {
    var registered = Sharding.register(operator, new PlainReconciler(), shards,
        c -> c.withName("releases").withFinalizer("demo.convoy.kumodo.io/finalizer").withLabelSelector("kind=release"));

    ControllerConfiguration<ConfigMap> config = registered.getConfiguration();
    assertThat(config.getName()).isEqualTo("releases");
    assertThat(config.getFinalizerName()).isEqualTo("demo.convoy.kumodo.io/finalizer");
    assertThat(config.getInformerConfig().getLabelSelector()).isEqualTo("kind=release");
  }

  @Test
  void theReconcilersOwnEventSourcesAreKeptAndTheAcquiredShardsSourceIsAdded() {
    var registered = Sharding.register(operator, new PlainReconciler(), shards, c -> {
    });
    var context = new EventSourceContext<>(null, registered.getConfiguration(), client, ConfigMap.class);

    List<EventSource<?, ConfigMap>> sources = ShardedReconciler.wrap(shards, new PlainReconciler())
        .prepareEventSources(context);

    assertThat(sources).hasSize(2);
    assertThat(sources.get(0)).isInstanceOf(UserSource.class);
    assertThat(sources.get(1)).isInstanceOf(AcquiredShardsEventSource.class);
  }

  @Test
  void theAcquiredShardsSourceSendsOnlyTheResourcesTheGenericFilterAccepts() {
    InformerConfiguration<ConfigMap> filters = register(new AnnotatedReconciler(), c -> {
    });
    List<Event> events = new CopyOnWriteArrayList<>();
    var source = new AcquiredShardsEventSource<>(shards, ListedCache.of(owned, ownedPaused, unowned),
        filters.getGenericFilter(), "acquired");
    source.setEventHandler(events::add);

    source.start(); // sends the resources of the shards owned at start
    source.stop();

    assertThat(events).extracting(Event::getRelatedCustomResourceID).containsExactly(ResourceID.fromResource(owned));
  }

  @Test
  void withUidShardingTheOwnershipFilterTakesTheShardOfTheResourcesUidAsTheGateDoes() {
    Coordinator ua = replica("ua", "josdk-uid", ShardBy.UID);
    Coordinator ub = replica("ub", "josdk-uid", ShardBy.UID);
    ua.start();
    ub.start();
    try {
      time.advance(Duration.ofSeconds(60));
      assertThat(ua.ownedShards()).hasSize(2);
      ShardOf<ConfigMap> byUid = ShardOf.byName(ua);
      ConfigMap mine = withUid(ua, true);
      ConfigMap theirs = withUid(ua, false);
      assertThat(byUid.shard(mine)).isEqualTo(ShardBy.UID.shardOf("demo", "cm", mine.getMetadata().getUid(), 4));

      InformerConfiguration<ConfigMap> filters = Sharding.register(operator, new PlainReconciler(), byUid, c -> {
      }).getConfiguration().getInformerConfig();

      assertThat(filters.getGenericFilter().accept(mine)).isTrue();
      assertThat(filters.getGenericFilter().accept(theirs)).isFalse();
      assertThatThrownBy(() -> ShardOf.<ConfigMap>byKey(ua, r -> "demo/cluster-1"))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--shard-by").hasMessageContaining("byName");
    } finally {
      ua.close();
      ub.close();
    }
  }

  /** A ConfigMap demo/cm whose uid is in an owned (or unowned) shard of {@code owner}. */
  private static ConfigMap withUid(Coordinator owner, boolean inOwnedShard) {
    for (int i = 0; ; i++) {
      String uid = "00000000-0000-0000-0000-" + String.format("%012d", i);
      if (owner.owns(ShardBy.UID.shardOf("demo", "cm", uid, 4)) == inOwnedShard) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("demo").withName("cm").withUid(uid)
            .withLabels(Map.of("paused", "false")).endMetadata().build();
      }
    }
  }

  private InformerConfiguration<ConfigMap> register(Reconciler<ConfigMap> reconciler,
      java.util.function.Consumer<io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider<ConfigMap>> overrides) {
    return Sharding.register(operator, reconciler, shards, overrides).getConfiguration().getInformerConfig();
  }

  /** A ConfigMap in an owned (or unowned) shard of replica a, paused or not. */
  private ConfigMap configMap(boolean inOwnedShard, boolean paused) {
    for (int i = 0; ; i++) {
      String name = (paused ? "paused-" : "cm-") + i;
      if (a.ownedShards().contains(a.shardOf("demo/" + name)) == inOwnedShard) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("demo").withName(name)
            .withLabels(Map.of("paused", Boolean.toString(paused))).endMetadata().build();
      }
    }
  }

  private static boolean notPaused(ConfigMap resource) {
    return !"true".equals(resource.getMetadata().getLabels().get("paused"));
  }

  private Coordinator replica(String id) {
    return replica(id, "josdk-filters", ShardBy.NAME);
  }

  private Coordinator replica(String id, String component, ShardBy shardBy) {
    return Coordinator.builder().component(component).replicaId(id).shardCount(4).shardBy(shardBy).leaseStore(store)
        .ticker(time).scheduler(time).clock(time.clock()).build();
  }

  /** The user's generic filter: paused resources are never reconciled. */
  public static final class NotPaused implements GenericFilter<ConfigMap> {
    @Override
    public boolean accept(ConfigMap resource) {
      return notPaused(resource);
    }
  }

  @io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration(name = "annotated",
      informer = @Informer(genericFilter = NotPaused.class))
  static final class AnnotatedReconciler implements Reconciler<ConfigMap> {
    @Override
    public UpdateControl<ConfigMap> reconcile(ConfigMap resource, Context<ConfigMap> context) {
      return UpdateControl.noUpdate();
    }
  }

  /** A reconciler with an event source of its own. */
  static final class PlainReconciler implements Reconciler<ConfigMap> {
    @Override
    public UpdateControl<ConfigMap> reconcile(ConfigMap resource, Context<ConfigMap> context) {
      return UpdateControl.noUpdate();
    }

    @Override
    public List<EventSource<?, ConfigMap>> prepareEventSources(EventSourceContext<ConfigMap> context) {
      return new ArrayList<>(List.of(new UserSource()));
    }
  }

  static final class UserSource extends AbstractEventSource<Void, ConfigMap> {
    UserSource() {
      super(Void.class, "user-source");
    }

    @Override
    public Set<Void> getSecondaryResources(ConfigMap primary) {
      return Set.of();
    }
  }
}
