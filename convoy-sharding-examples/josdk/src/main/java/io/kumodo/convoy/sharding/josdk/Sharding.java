/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.josdk;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RegisteredController;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
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
 * resource type), applies {@code overrides}, sets {@link OwnedFilter} as the primary's add,
 * update and generic filter (the generic filter also filters deletes; a filter set in
 * {@code overrides} is replaced), and registers the {@link ShardedReconciler} of
 * {@code reconciler}. Secondary sources get the filter where the reconciler builds them.
 */
public final class Sharding {
  private Sharding() {
  }

  /** Registers {@code reconciler}, gated and filtered by {@code shards}, with {@code operator}. */
  public static <P extends HasMetadata> RegisteredController<P> register(Operator operator, Reconciler<P> reconciler,
      ShardOf<P> shards, Consumer<ControllerConfigurationOverrider<P>> overrides) {
    var config = ControllerConfigurationOverrider.override(
        operator.getConfigurationService().getConfigurationFor(reconciler));
    overrides.accept(config);
    OwnedFilter<P> owned = OwnedFilter.of(shards);
    config.withOnAddFilter(owned.onAdd()).withOnUpdateFilter(owned.onUpdate()).withGenericFilter(owned.generic());
    return operator.register(ShardedReconciler.wrap(shards, reconciler), config.build());
  }
}
