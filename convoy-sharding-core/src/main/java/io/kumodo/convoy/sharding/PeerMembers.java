/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.CoordinatorEvents.Operation;
import io.kumodo.convoy.sharding.internal.Durations;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseConflictException;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writes of the other replicas' member leases, as {@link io.kumodo.convoy.sharding.protocol.Protocol#decide}
 * found them (step 2): marking those unchanged for a lease duration released (so a replica that
 * joins later does not count a crashed member as live; done by the first of the sorted live
 * replicas only, so a crash costs one write, not one per replica), and deleting those unchanged
 * for 10. This replica's own member lease is {@link MemberLeases}'s.
 *
 * <p>Not thread-safe: the tick runs it under the coordinator's lock.
 */
final class PeerMembers {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private final Settings s;
  private final ErrorLog errors;

  PeerMembers(Settings settings, ErrorLog errors) {
    this.s = settings;
    this.errors = errors;
  }

  /**
   * Marks {@code lease}, a member lease seen unchanged for a lease duration, released (holder
   * empty, {@link LeaseAnnotations#EXPIRED_BY} this replica), by a compare-and-swap on that
   * version. Its incarnation's next renewal meets a conflict.
   */
  void mark(Lease lease) {
    Map<String, String> annotations = new HashMap<>(lease.annotations());
    annotations.put(LeaseAnnotations.EXPIRED_BY, s.replicaId());
    try {
      // renewTime stays the holder's last renewal: the record still says when it was last alive.
      s.store().update(lease.withHolder("", lease.acquireTime(), lease.renewTime(), lease.transitions())
          .withAnnotations(annotations));
      log.info("{}/{}: marked the member lease of {} released: unchanged for {}", s.component(), s.replicaId(),
          lease.key().replicaId(), Durations.format(s.leaseDuration()));
      StoreCalls.report(s, LeaseRole.MEMBER, Operation.MARK, CoordinatorEvents.Outcome.OK);
    } catch (LeaseConflictException e) {
      StoreCalls.report(s, LeaseRole.MEMBER, Operation.MARK, CoordinatorEvents.Outcome.CONFLICT); // renewed or released meanwhile
    } catch (LeaseStoreException | RuntimeException | Error e) {
      errors.failed("release expired member lease", lease.key(), e);
      StoreCalls.report(s, LeaseRole.MEMBER, Operation.MARK, CoordinatorEvents.Outcome.ERROR);
    }
  }

  void deleteStale(Lease lease) {
    try {
      s.store().delete(lease);
      log.info("{}/{}: deleted member lease of {}, unchanged for 10 lease durations", s.component(),
          s.replicaId(), lease.key().replicaId());
      StoreCalls.report(s, LeaseRole.MEMBER, Operation.DELETE, CoordinatorEvents.Outcome.OK);
    } catch (LeaseConflictException e) {
      log.debug("{}/{}: stale member lease {} changed before delete", s.component(), s.replicaId(), lease.key());
      StoreCalls.report(s, LeaseRole.MEMBER, Operation.DELETE, CoordinatorEvents.Outcome.CONFLICT);
    } catch (LeaseStoreException | RuntimeException | Error e) {
      errors.failed("delete stale member lease", lease.key(), e);
      StoreCalls.report(s, LeaseRole.MEMBER, Operation.DELETE, CoordinatorEvents.Outcome.ERROR);
    }
  }
}
