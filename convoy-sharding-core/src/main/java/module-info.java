/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * convoy-sharding-core: the shard key, the {@link io.kumodo.convoy.sharding.Coordinator}, the
 * assignments ({@code io.kumodo.convoy.sharding}), the lease-store SPI ({@code
 * io.kumodo.convoy.sharding.spi}), and the Micrometer
 * binding ({@code io.kumodo.convoy.sharding.micrometer}, which needs micrometer-core at run time
 * only when it is used). {@code io.kumodo.convoy.sharding.internal} is for convoy-sharding-fabric8
 * and the kubectl plugin (convoy-sharding-kubectl) alone. The test kit is the separate module
 * {@code io.kumodo.convoy.sharding.testing}.
 *
 * <p>Micrometer is {@code requires static transitive}: optional at run time, and read by every
 * module that reads this one, since {@code CoordinatorMetrics} takes a {@code MeterRegistry}.
 * The lint warnings it suppresses: "module", since convoy-sharding-fabric8 and
 * convoy-sharding-kubectl, the targets of the qualified export, are built after this module;
 * "requires-automatic" and "requires-transitive-automatic", since micrometer-core is an automatic module (its
 * Automatic-Module-Name, micrometer.core, is stable).
 */
@SuppressWarnings({"module", "requires-automatic", "requires-transitive-automatic"})
module io.kumodo.convoy.sharding {
  requires org.slf4j;
  requires static transitive micrometer.core;

  exports io.kumodo.convoy.sharding;
  exports io.kumodo.convoy.sharding.spi;
  exports io.kumodo.convoy.sharding.micrometer;
  exports io.kumodo.convoy.sharding.internal to
      io.kumodo.convoy.sharding.fabric8,
      io.kumodo.convoy.sharding.kubectl;
}
