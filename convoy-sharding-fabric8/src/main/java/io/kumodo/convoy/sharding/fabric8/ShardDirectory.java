/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.Ticker;
import io.kumodo.convoy.sharding.fabric8.internal.DirectoryState;
import io.kumodo.convoy.sharding.fabric8.internal.DirectoryWatch;
import io.kumodo.convoy.sharding.internal.OptionLimits;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A read-only view of who owns which shard of one component, for any process that needs to
 * know (a front end that routes a request to the owner of its shard, a dashboard, an operator
 * tool): the Kubernetes form of a shard manager's "spectator". It watches the component's Lease
 * objects in the lease namespace and answers every look-up from memory.
 *
 * <pre>{@code
 * try (ShardDirectory directory = ShardDirectory.builder(client, "convoy-system", "convoy-cm")
 *     .shardCount(32)
 *     .build()) {                                   // waits for the first sync
 *   Optional<ShardDirectory.Owner> owner = directory.ownerOfKey("demo", "cluster-07");
 *   owner.map(ShardDirectory.Owner::address).ifPresent(address -> forward(request, address));
 * }
 * }</pre>
 *
 * <p>What it promises:
 *
 * <ul>
 *   <li>{@link #ownerOf}, {@link #ownerOfKey}, {@link #members} and {@link #drainedShards} read
 *       memory only and send no request; the directory sends one LIST and keeps one WATCH open,
 *       filtered by the label {@code sharding.convoy.kumodo.io/component=<component>}. Built on a
 *       {@link KubernetesLeaseStore} ({@link #builder(KubernetesLeaseStore, String)}) it sends
 *       none of its own: it reads the lease cache of that store, which the coordinators using the
 *       store read too, and the store rebuilds that cache when its watch is lost or stalls.
 *   <li>The owner of a shard is the holder of its Lease while the Lease is held, not drained
 *       ({@link LeaseAnnotations#DRAINED}) and not observed unchanged for its lease duration on
 *       this process's own monotonic clock (as a coordinator judges expiry; a version seen for
 *       the first time counts as just renewed). Its address is what the holder publishes in
 *       {@link LeaseAnnotations#ADDRESS} on its member Lease ({@code Coordinator.Builder.address},
 *       {@code --advertise-address}).
 *   <li>{@link #subscribe} listeners hear every change of a shard's owner as this directory sees
 *       it, in order, on the directory's own thread: each change's before is the previous
 *       change's after, and replaying them gives {@link #ownerOf}.
 *   <li>Objects that are not well-formed leases of the component are skipped (and logged).
 * </ul>
 *
 * <p>What it does NOT promise: that the owner it names owns the shard now. It lags the API
 * server by the watch delay, and after a crash it names the crashed replica for up to one lease
 * duration (until the lease is observed expired; then no owner, until a peer takes the lease).
 * If its watch is cut off, every owner expires after one lease duration and look-ups answer
 * empty. A request routed with it can reach a replica that no longer owns the shard: the check
 * that matters is the receiving replica's own gate ({@link Coordinator#owns(int)},
 * {@code ShardGate}), which must reject or forward it. Empty means "no owner known now": retry
 * later, or route anywhere and let the gate decide.
 *
 * <p>Thread-safe. Close it to stop the watch; the client (or store) stays the caller's.
 */
public final class ShardDirectory implements AutoCloseable {
  /** How long {@link Builder#build()} waits for the first sync by default, 10 s. */
  public static final Duration DEFAULT_SYNC_TIMEOUT = Duration.ofSeconds(10);

  private final String namespace;
  private final String component;
  private final int shardCount;
  private final ShardBy shardBy;
  private final DirectoryState state;
  private final DirectoryWatch watch;

  /**
   * The owner of a shard.
   *
   * @param replicaId the replica ID of the holder of the shard's Lease
   * @param address where the replica says it can be reached ({@link LeaseAnnotations#ADDRESS} on
   *     its member Lease, e.g. {@code 10.1.2.3:8080}); null when it publishes none or its member
   *     Lease is gone
   */
  public record Owner(String replicaId, String address) {
    /** Checks the replica ID. */
    public Owner {
      Objects.requireNonNull(replicaId, "replicaId");
    }
  }

  /**
   * A replica of the component, from its member Lease.
   *
   * @param replicaId the replica ID
   * @param address its {@link LeaseAnnotations#ADDRESS}, or null
   * @param drained whether its member Lease carries {@link LeaseAnnotations#DRAINED}{@code =true}
   * @param live whether it holds its member Lease and was seen renewing it within its lease
   *     duration (a drained replica can be live: it renews, but takes no shard)
   */
  public record Member(String replicaId, String address, boolean drained, boolean live) {}

  /** Hears the changes of shard owners. */
  @FunctionalInterface
  public interface OwnerListener {
    /**
     * The owner of {@code shard} changed from {@code before} to {@code after} (empty: no owner
     * known). Called on the directory's thread; must return quickly and should not throw (a
     * throw is logged and ignored).
     */
    void ownerChanged(int shard, Optional<Owner> before, Optional<Owner> after);
  }

  private ShardDirectory(Builder b) {
    this.namespace = b.namespace;
    this.component = b.component;
    this.shardCount = b.shardCount;
    this.shardBy = b.shardBy;
    this.state = new DirectoryState(b.shardCount, b.ticker);
    boolean owned = b.store == null;
    KubernetesLeaseStore store = owned
        ? KubernetesLeaseStore.builder(b.client, b.namespace).syncTimeout(b.syncTimeout).maxWritesInFlight(1).build()
        : b.store;
    this.watch = new DirectoryWatch(store, store::syncedCache, owned, b.component, state, b.ticker);
  }

  /**
   * A builder for the directory of {@code component}'s Leases in {@code namespace}, with a lease
   * watch of its own on {@code client}. In a process that also runs a coordinator of the
   * component, prefer {@link #builder(KubernetesLeaseStore, String)} with its store.
   */
  public static Builder builder(KubernetesClient client, String namespace, String component) {
    return new Builder(Objects.requireNonNull(client, "client"), null, namespace, component);
  }

  /**
   * A builder for the directory of {@code component}'s Leases in the namespace of {@code store},
   * reading the lease cache that {@code store} keeps: no watch of its own, and the store's
   * detection of a stalled or lost watch serves it too. The store stays the caller's; close the
   * directory before it.
   */
  public static Builder builder(KubernetesLeaseStore store, String component) {
    Objects.requireNonNull(store, "store");
    return new Builder(null, store, store.namespace(), component);
  }

  /**
   * The owner of {@code shard}, or empty when it is free, drained, not yet created, or its
   * lease was observed expired. Reads memory only.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= shard < shardCount()}
   */
  public Optional<Owner> ownerOf(int shard) {
    return state.ownerOf(shard);
  }

  /**
   * The owner of the shard of the object {@code namespace/name} (with this directory's shard
   * count and {@link ShardBy}; a null or empty namespace means a cluster-scoped object).
   *
   * @throws IllegalStateException when the directory shards by uid: use {@link #ownerOfObject}
   */
  public Optional<Owner> ownerOfKey(String namespace, String name) {
    if (shardBy == ShardBy.UID) {
      throw new IllegalStateException("the ShardDirectory of " + component + " shards by uid: namespace and name "
          + "do not give the shard; use ownerOfObject");
    }
    return state.ownerOf(shardBy.shardOf(namespace, Objects.requireNonNull(name, "name"), null, shardCount));
  }

  /**
   * The owner of the shard of {@code object}, with this directory's shard count and
   * {@link ShardBy} (in uid mode the object must carry its uid).
   */
  public Optional<Owner> ownerOfObject(HasMetadata object) {
    ObjectMeta meta = object.getMetadata();
    return state.ownerOf(shardBy.shardOf(meta.getNamespace(), meta.getName(), meta.getUid(), shardCount));
  }

  /**
   * The number of shards without a live owner now: {@link #ownerOf} is empty for them (free,
   * drained, missing, or observed expired). Reads memory only.
   */
  public int unownedShards() {
    return state.unownedShards();
  }

  /**
   * How long the shard that has been without a live owner the longest has had none, timed from
   * when this directory first observed it without one; zero when every shard has an owner. After
   * a crash that is from one lease duration after the crashed holder's last renewal this
   * directory observed, until a peer takes the lease. Reads memory only.
   */
  public Duration oldestUnowned() {
    return state.oldestUnowned();
  }

  /** The replicas with a member Lease, sorted by replica ID; a snapshot. */
  public List<Member> members() {
    return state.members();
  }

  /** The shards whose Lease carries {@link LeaseAnnotations#DRAINED}{@code =true}, sorted; a snapshot. */
  public Set<Integer> drainedShards() {
    return state.drained();
  }

  /**
   * Registers {@code listener} for the owner changes from now on (it is not told the current
   * owners: read them with {@link #ownerOf}). Closing the result unregisters it.
   */
  public AutoCloseable subscribe(OwnerListener listener) {
    return state.subscribe(listener);
  }

  /** What an object's shard is computed from, as this directory was built. */
  public ShardBy shardBy() {
    return shardBy;
  }

  /** S, the shard count this directory was built with. */
  public int shardCount() {
    return shardCount;
  }

  /** The component. */
  public String component() {
    return component;
  }

  /** The lease namespace. */
  public String namespace() {
    return namespace;
  }

  /** Stops the watch and the directory's thread; look-ups then answer from the last state. Idempotent. */
  @Override
  public void close() {
    watch.close();
  }

  @Override
  public String toString() {
    return "ShardDirectory{" + namespace + "/" + component + ", " + shardBy.published(shardCount) + " shards}";
  }

  /** Options of a {@link ShardDirectory}. */
  public static final class Builder {
    private final KubernetesClient client;
    private final KubernetesLeaseStore store;
    private final String namespace;
    private final String component;
    private int shardCount = Coordinator.Builder.DEFAULT_SHARD_COUNT;
    private ShardBy shardBy = ShardBy.NAME;
    private Duration syncTimeout = DEFAULT_SYNC_TIMEOUT;
    private Ticker ticker = Ticker.system();

    private Builder(KubernetesClient client, KubernetesLeaseStore store, String namespace, String component) {
      this.client = client;
      this.store = store;
      this.namespace = Objects.requireNonNull(namespace, "namespace");
      this.component = Objects.requireNonNull(component, "component");
    }

    /** S, 1 to 65536; default 32; the same as the replicas' {@code --shards}. */
    public Builder shardCount(int shardCount) {
      this.shardCount = OptionLimits.shardCount("shardCount", shardCount);
      return this;
    }

    /** What an object's shard is computed from; default name; the same as the replicas' {@code --shard-by}. */
    public Builder shardBy(ShardBy shardBy) {
      this.shardBy = Objects.requireNonNull(shardBy, "shardBy");
      return this;
    }

    /** How long {@link #build()} waits for the first sync; default 10 s; greater than zero. */
    public Builder syncTimeout(Duration syncTimeout) {
      if (syncTimeout == null || syncTimeout.isNegative() || syncTimeout.isZero()) {
        throw new IllegalArgumentException("syncTimeout must be greater than 0: " + syncTimeout);
      }
      this.syncTimeout = syncTimeout;
      return this;
    }

    /** The monotonic clock that times lease expiry; for tests. */
    Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /**
     * Starts the directory and waits until it holds the component's Leases as listed.
     *
     * @throws IllegalStateException when the first sync fails or takes longer than the sync
     *     timeout (the directory is closed then)
     */
    public ShardDirectory build() {
      ShardDirectory directory = new ShardDirectory(this);
      try {
        directory.watch.start().get(syncTimeout.toNanos(), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        directory.close();
        throw new IllegalStateException("the ShardDirectory of " + component + " in namespace " + namespace
            + " did not sync within " + syncTimeout.toMillis() + " ms", e);
      } catch (java.util.concurrent.ExecutionException e) {
        directory.close();
        throw new IllegalStateException("listing the Leases of " + component + " in namespace " + namespace
            + " failed: " + e.getCause(), e.getCause());
      } catch (InterruptedException e) {
        directory.close();
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while the ShardDirectory of " + component + " synced", e);
      }
      return directory;
    }
  }
}
