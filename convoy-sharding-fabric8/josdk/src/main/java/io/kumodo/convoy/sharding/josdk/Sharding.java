/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.josdk;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RegisteredController;
import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.javaoperatorsdk.operator.api.config.informer.InformerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import java.util.function.Consumer;

/**
 * Registers a JOSDK reconciler sharded by convoy, in one call:
 *
 * <pre>{@code
 * ShardOf<Release> shards = ShardOf.byKey(coordinator, r -> ns + "/" + r.getSpec().getClusterRef());
 * Sharding.register(operator, new ReleaseReconciler(), shards, c -> c.withFinalizer(FINALIZER));
 * }</pre>
 *
 * <p>It takes the configuration JOSDK derives from {@code reconciler} (its annotation and
 * resource type) and applies {@code overrides}. Then it combines {@link OwnedFilter} with the
 * primary's add, update and generic filters: an event passes only when this replica owns the
 * resource's shard and the user's own filter, if any, accepts it. The generic filter also filters
 * the primary's deletes (JOSDK 5.3 has no delete filter on the primary). It registers the
 * {@link ShardedReconciler} of {@code reconciler}, which keeps the reconciler's own event
 * sources. Secondary sources get the filter where the reconciler builds them: see
 * {@link OwnedFilter}.
 */
public final class Sharding {
  private Sharding() {
  }

  /** Registers {@code reconciler}, gated and filtered by {@code shards}, with {@code operator}. */
  public static <P extends HasMetadata> RegisteredController<P> register(Operator operator, Reconciler<P> reconciler,
      ShardOf<P> shards, Consumer<ControllerConfigurationOverrider<P>> overrides) {
    return operator.register(ShardedReconciler.wrap(shards, reconciler),
        configuration(operator.getConfigurationService().getConfigurationFor(reconciler), shards, overrides));
  }

  /**
   * {@code base} with {@code overrides} applied and convoy's ownership filter ANDed with the
   * primary's add, update and generic filters.
   */
  static <P extends HasMetadata> ControllerConfiguration<P> configuration(ControllerConfiguration<P> base,
      ShardOf<P> shards, Consumer<ControllerConfigurationOverrider<P>> overrides) {
    var users = ControllerConfigurationOverrider.override(base);
    overrides.accept(users);
    ControllerConfiguration<P> configured = users.build();
    InformerConfiguration<P> own = configured.getInformerConfig();
    OwnedFilter<P> owned = OwnedFilter.of(shards);
    var onAdd = owned.onAdd();
    var onUpdate = owned.onUpdate();
    var generic = owned.generic();
    if (own.getOnAddFilter() != null) {
      var user = own.getOnAddFilter();
      onAdd = onAdd.and(user::accept);
    }
    if (own.getOnUpdateFilter() != null) {
      var user = own.getOnUpdateFilter();
      onUpdate = onUpdate.and(user::accept);
    }
    if (own.getGenericFilter() != null) {
      var user = own.getGenericFilter();
      generic = generic.and(user::accept);
    }
    return ControllerConfigurationOverrider.override(configured)
        .withOnAddFilter(onAdd).withOnUpdateFilter(onUpdate).withGenericFilter(generic).build();
  }
}
