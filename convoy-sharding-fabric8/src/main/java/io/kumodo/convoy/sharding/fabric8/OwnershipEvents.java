/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.CoordinatorEvents;
import io.kumodo.convoy.sharding.OnChange;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.ShardChange;
import io.kumodo.convoy.sharding.fabric8.internal.ShardRanges;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link OnChange} callback that records each ownership change of a replica as a core/v1
 * Kubernetes Event on the replica's member Lease, so that {@code kubectl describe lease
 * <component>-member-<replica>} and {@code kubectl get events} show when shards moved:
 *
 * <pre>{@code
 * OwnershipEvents events = OwnershipEvents.recorder(client, options, "convoy-cm");
 * Coordinator c = options.coordinatorBuilder("convoy-cm", store).onChange(events).build();
 * ...
 * c.close();
 * events.close();   // sends what is queued (at most 2 s), then stops its thread
 * }</pre>
 *
 * <p>Each change gives up to two Events, both {@code type: Normal}: reason {@link #ACQUIRED}
 * and reason {@link #RELEASED}, with a message such as {@code acquired shards 0-3,8 (owns 5)};
 * {@code involvedObject} is the member Lease (with its uid, so {@code kubectl describe} finds
 * them), {@code source.component} and {@code reportingComponent} the component,
 * {@code reportingInstance} the replica ID.
 *
 * <p>It is also a {@link CoordinatorEvents}: registered there too ({@code .events(events)}, or
 * {@code CoordinatorEvents.all(metrics, events)}), it records a {@code type: Warning} Event with
 * reason {@link #SHARD_COUNT_MISMATCH} when replicas start to disagree on the shard count (or who
 * disagrees changes), and a {@code Normal} one with reason {@link #SHARD_COUNTS_AGREE} when all
 * agree again: once per change, not per tick.
 *
 * <p>What it promises: {@link #onChange} never blocks and never throws. The Events are sent on
 * a thread of its own, one at a time (a GET of the member Lease for its uid until it is known,
 * then a POST per Event); at most 64 wait, and a change that finds the queue full is dropped.
 * An API error (no RBAC {@code events: create} in the lease namespace, an unreachable server)
 * is logged and the Event dropped; {@link #dropped()} counts them. Events are a record for
 * people, not a protocol: never build on their delivery.
 */
public final class OwnershipEvents implements OnChange, CoordinatorEvents, AutoCloseable {
  /** The reason of an Event for acquired shards. */
  public static final String ACQUIRED = "ShardsAcquired";
  /** The reason of an Event for released shards. */
  public static final String RELEASED = "ShardsReleased";
  /** The reason of a Warning Event: replicas publish another shard count; nobody owns a shard. */
  public static final String SHARD_COUNT_MISMATCH = "ShardCountMismatch";
  /** The reason of an Event: all replicas agree on the shard count again. */
  public static final String SHARD_COUNTS_AGREE = "ShardCountsAgree";

  private static final Logger log = LoggerFactory.getLogger(OwnershipEvents.class);
  private static final int QUEUE = 64;
  private static final int MAX_MESSAGE = 1024;
  private static final int MAX_REPORTING_INSTANCE = 128;
  private static final int MAX_NAME = 253;

  private final KubernetesClient client;
  private final String namespace;
  private final String component;
  private final String replicaId;
  private final String leaseName;
  /** This replica's shard function, named in the shard-count Events unless it is name. */
  private final ShardBy shardBy;
  private final Clock clock;
  private final ThreadPoolExecutor sender;
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong sequence = new AtomicLong();
  private volatile String leaseUid;
  private volatile boolean failing;
  private volatile boolean overflowing;

  private OwnershipEvents(KubernetesClient client, String namespace, String component, String replicaId,
      ShardBy shardBy, Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.shardBy = Objects.requireNonNull(shardBy, "shardBy");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.component = Objects.requireNonNull(component, "component");
    this.replicaId = Objects.requireNonNull(replicaId, "replicaId");
    this.leaseName = LeaseNames.memberName(component, replicaId);
    this.clock = clock;
    this.sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
      Thread t = new Thread(r, "convoy-events-" + component);
      t.setDaemon(true);
      return t;
    }, (task, executor) -> {
      dropped.incrementAndGet();
      if (!overflowing) {
        overflowing = true;
        log.warn("{}/{}: {} ownership Events wait to be sent; dropping new ones until one is sent", component,
            replicaId, QUEUE);
      }
    });
  }

  /**
   * A recorder for replica {@code replicaId} of {@code component}, whose member Lease is in
   * {@code leaseNamespace} and whose coordinator shards by {@code shardBy}.
   */
  public static OwnershipEvents recorder(KubernetesClient client, String leaseNamespace, String component,
      String replicaId, ShardBy shardBy) {
    return new OwnershipEvents(client, leaseNamespace, component, replicaId, shardBy, Clock.systemUTC());
  }

  /** A recorder for this replica ({@code options}' replica ID, lease namespace and shard function) of {@code component}. */
  public static OwnershipEvents recorder(KubernetesClient client, CoordinatorOptions options, String component) {
    return recorder(client, options.leaseNamespace(), component, options.replicaId(), options.shardBy());
  }

  /** Queues the Events of {@code change}; returns at once. */
  @Override
  public void onChange(ShardChange change) {
    try {
      if (!change.acquired().isEmpty()) {
        queue(ACQUIRED, "Normal", "acquired shards " + ShardRanges.format(change.acquired()) + " (owns "
            + change.owned().size() + ")");
      }
      if (!change.released().isEmpty()) {
        queue(RELEASED, "Normal", "released shards " + ShardRanges.format(change.released()) + " (owns "
            + change.owned().size() + ")");
      }
    } catch (RuntimeException e) {
      dropped.incrementAndGet();
      log.warn("{}/{}: ownership Event not queued: {}", component, replicaId, e.toString());
    }
  }

  /** {@code --shards=32}, and {@code --shard-by=uid} after it unless the mode is name. */
  private String flags(int shardCount) {
    return "--shards=" + shardCount + (shardBy == ShardBy.NAME ? "" : " --shard-by=" + shardBy.value());
  }

  /** Queues a Warning Event when replicas start to disagree on the shard count, a Normal one when they agree again. */
  @Override
  public void shardCountMismatch(int shardCount, Map<String, String> others) {
    try {
      if (others.isEmpty()) {
        queue(SHARD_COUNTS_AGREE, "Normal", "all replicas agree on " + flags(shardCount)
            + " again; ownership resumes");
      } else {
        StringBuilder who = new StringBuilder();
        others.forEach((id, count) -> who.append(who.length() == 0 ? "" : ",").append(id).append('=').append(count));
        queue(SHARD_COUNT_MISMATCH, "Warning", "this replica has " + flags(shardCount) + ", others publish " + who
            + ": no replica owns a shard until every replica with another count has stopped");
      }
    } catch (RuntimeException e) {
      dropped.incrementAndGet();
      log.warn("{}/{}: shard-count Event not queued: {}", component, replicaId, e.toString());
    }
  }

  /** The Events not sent: queue full, API errors, closed. */
  public long dropped() {
    return dropped.get();
  }

  /** Sends the queued Events (waiting at most 2 s), then stops the sender thread. Idempotent. */
  @Override
  public void close() {
    sender.shutdown();
    try {
      if (!sender.awaitTermination(2, TimeUnit.SECONDS)) {
        dropped.addAndGet(sender.shutdownNow().size());
      }
    } catch (InterruptedException e) {
      dropped.addAndGet(sender.shutdownNow().size());
      Thread.currentThread().interrupt();
    }
  }

  private void queue(String reason, String type, String message) {
    Instant at = clock.instant();
    sender.execute(() -> send(reason, type, message, at));
  }

  private void send(String reason, String type, String message, Instant at) {
    try {
      String time = at.truncatedTo(ChronoUnit.SECONDS).toString();
      Event event = new EventBuilder()
          .withNewMetadata().withName(eventName(at)).withNamespace(namespace).endMetadata()
          .withInvolvedObject(involvedObject())
          .withType(type)
          .withReason(reason)
          .withMessage(message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE - 3) + "...")
          .withNewSource().withComponent(component).endSource()
          .withReportingComponent(component)
          .withReportingInstance(replicaId.length() <= MAX_REPORTING_INSTANCE ? replicaId
              : replicaId.substring(0, MAX_REPORTING_INSTANCE))
          .withFirstTimestamp(time)
          .withLastTimestamp(time)
          .withCount(1)
          .build();
      client.v1().events().inNamespace(namespace).resource(event).create();
      overflowing = false;
      if (failing) {
        failing = false;
        log.info("{}/{}: ownership Events are sent again", component, replicaId);
      }
    } catch (RuntimeException e) {
      dropped.incrementAndGet();
      if (!failing) {
        failing = true;
        log.warn("{}/{}: cannot record the ownership Event {} on Lease {}/{} (needs RBAC events: create in {}); "
            + "dropping it and any more until one succeeds: {}", component, replicaId, reason, namespace, leaseName,
            namespace, e.toString());
      } else {
        log.debug("{}/{}: ownership Event {} dropped: {}", component, replicaId, reason, e.toString());
      }
    }
  }

  /** The member Lease, with its uid once a GET found it. */
  private ObjectReference involvedObject() {
    String uid = leaseUid;
    if (uid == null) {
      var lease = client.leases().inNamespace(namespace).withName(leaseName).get();
      uid = lease == null ? null : lease.getMetadata().getUid();
      leaseUid = uid;
    }
    return new ObjectReferenceBuilder().withApiVersion("coordination.k8s.io/v1").withKind("Lease")
        .withNamespace(namespace).withName(leaseName).withUid(uid).build();
  }

  /** {@code <lease name>.<hex time>}, as client-go names Events, cut to fit 253 characters. */
  private String eventName(Instant at) {
    long stamp = at.getEpochSecond() * 1_000_000_000L + at.getNano() + sequence.incrementAndGet() % 1000;
    String suffix = "." + Long.toHexString(stamp);
    String prefix = leaseName;
    if (prefix.length() + suffix.length() > MAX_NAME) {
      prefix = prefix.substring(0, MAX_NAME - suffix.length());
      while (prefix.endsWith("-") || prefix.endsWith(".")) {
        prefix = prefix.substring(0, prefix.length() - 1);
      }
    }
    return prefix + suffix;
  }
}
