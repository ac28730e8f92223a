/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kumodo.convoy.sharding.fabric8.ShardScopedInformer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * Issue 26, item 2: {@link ShardScopedInformer}'s shard-selector mode on a real API server
 * without the feature gate ({@link RealApiServer#WITHOUT_SHARDED_LIST_AND_WATCH}), which ignores
 * the selector as a server older than Kubernetes 1.36 does: the informer says so once at WARN,
 * filters on the client, and the scenario of {@link LeasedSelectorOnRealServerIT} holds all the
 * same (the cache holds only the owned ranges' objects; the hand-over loses no event).
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
@ExtendWith(RealKube.class)
@RealKube.OwnServer(flags = RealApiServer.WITHOUT_SHARDED_LIST_AND_WATCH)
class LeasedSelectorFallbackOnRealServerIT {
  @Test
  void aServerWithoutTheGateIsNamedOnceAtWarnAndTheClientSideFilterHoldsTheSamePromises(RealKube kube)
      throws Exception {
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    ch.qos.logback.classic.Logger informerLog =
        (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(ShardScopedInformer.class);
    logged.start();
    informerLog.addAppender(logged);
    try {
      LeasedSelectorOnRealServerIT.Recorder recorder = LeasedSelectorOnRealServerIT.handOver(kube, "fallback");
      assertThat(recorder.informer.serverSideFiltering()).isFalse();
      assertThat(logged.list.stream().filter(e -> e.getLevel() == Level.WARN)
          .map(ILoggingEvent::getFormattedMessage)).singleElement().asString()
          .contains("does not apply the shard selector").contains("no metadata.shardInfo");
    } finally {
      informerLog.detachAppender(logged);
    }
  }
}
