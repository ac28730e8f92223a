/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kumodo.convoy.sharding.fabric8.KubernetesLeaseStore;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A verb RBAC forbids is logged once at ERROR, naming verb and resource, until it works again. */
class ForbiddenVerbsTest {
  private static final String REASON = "leases.coordination.k8s.io \"cm-shard-0\" is forbidden: User "
      + "\"system:serviceaccount:convoy-system:convoy-demo\" cannot update resource \"leases\" in API group "
      + "\"coordination.k8s.io\" in the namespace \"convoy-system\"";

  private final Logger logger = (Logger) LoggerFactory.getLogger(KubernetesLeaseStore.class);
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final ForbiddenVerbs verbs = new ForbiddenVerbs("convoy-system");

  @BeforeEach
  void capture() {
    logs.start();
    logger.addAppender(logs);
  }

  @AfterEach
  void release() {
    logger.detachAppender(logs);
  }

  @Test
  void aForbiddenVerbIsLoggedOnceAtErrorNamingVerbAndResourceUntilItIsAllowedAgain() {
    LeaseStoreException first = verbs.refused("update", "update shard 0 of cm", forbidden());
    verbs.refused("update", "update shard 1 of cm", forbidden());
    verbs.refused("update", "update member cm-a of cm", forbidden());

    assertThat(first).hasMessageStartingWith("update shard 0 of cm forbidden (HTTP 403): \"update\" on "
        + "leases.coordination.k8s.io is not allowed: " + REASON).hasCauseInstanceOf(KubernetesClientException.class);
    assertThat(lines(Level.ERROR)).singleElement().satisfies(l -> assertThat(l)
        .contains("forbids \"update\" on leases.coordination.k8s.io in namespace convoy-system", REASON,
            "deploy/role.yaml"));

    verbs.refused("create", "create shard 2 of cm", forbidden());
    assertThat(lines(Level.ERROR)).hasSize(2).last().asString().contains("forbids \"create\"");

    verbs.allowed("update");
    assertThat(lines(Level.INFO)).singleElement().asString().contains("\"update\" on leases.coordination.k8s.io "
        + "in namespace convoy-system is allowed again");
    verbs.allowed("update");
    assertThat(lines(Level.INFO)).hasSize(1);

    verbs.refused("update", "update shard 0 of cm", forbidden());
    assertThat(lines(Level.ERROR)).hasSize(3);
  }

  private List<String> lines(Level level) {
    return logs.list.stream().filter(e -> e.getLevel() == level).map(ILoggingEvent::getFormattedMessage).toList();
  }

  private static KubernetesClientException forbidden() {
    return new KubernetesClientException(new StatusBuilder().withCode(403).withReason("Forbidden")
        .withMessage(REASON).build());
  }
}
