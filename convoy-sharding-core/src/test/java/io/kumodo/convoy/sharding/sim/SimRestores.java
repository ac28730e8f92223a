/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.Lease;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.LeaseConflictException;
import io.kumodo.convoy.sharding.LeaseEvent;
import io.kumodo.convoy.sharding.LeaseKey;
import io.kumodo.convoy.sharding.LeaseRole;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * An operator restoring a saved copy of a lease, as a {@link FaultSimulation} fault (on unless
 * {@link FaultSimulation.Builder#restoreFaults} turns it off): {@code kubectl get lease -o yaml}
 * saved at some moment and written back later, or a backup restored. The operator has saved every
 * version of every lease of the component it ever saw (shard leases and member leases, marked ones
 * included: {@code expired-by}, {@code ended-incarnation}, {@code released-shards}; free ones with
 * {@code freed-by}), and writes one back over the current lease in one of two ways:
 *
 * <ul>
 *   <li><b>apply</b>: an unconditional update ({@code kubectl apply} or {@code replace} of the saved
 *       manifest without its resourceVersion): the store gives the copy a new resourceVersion and
 *       keeps the current creation time; a missing lease is created from the copy;
 *   <li><b>delete and create</b> ({@code kubectl replace --force}, a backup tool): the current
 *       lease is deleted and the copy created, with a new resourceVersion and creation time.
 * </ul>
 *
 * <p>Half of the restores pick, when the operator saved one, a copy of a member lease that says
 * its incarnation ended or released shards: the copies that tell peers to take shards at once.
 * The others pick a lease the operator saw, then one of its saved versions, each equally likely.
 * Like {@link SimOutsiders}, the write has no precondition on a version a replica observed.
 */
final class SimRestores {
  /** A restore's note in a trace: how, and whether the copy was marked. */
  private static final String NOTE = "outsider restores a saved copy";

  private final FaultSimulation sim;
  /** Per lease the operator saw, in the order first seen: every version saved, oldest first. */
  private final Map<LeaseKey, List<Saved>> copies = new LinkedHashMap<>();
  /** The saved member-lease versions that say an incarnation ended or released shards. */
  private final List<Saved> marked = new ArrayList<>();
  /** Per shard, the highest fencing token its lease ever had in the store. */
  private final Map<Integer, Long> highestToken = new HashMap<>();
  /** Per shard, when a restore last wrote its lease with a token below the highest it ever had. */
  private final Map<Integer, Long> rolledBackAt = new HashMap<>();
  private final boolean on;

  /** A saved copy and when it was saved. */
  private record Saved(Lease lease, Duration at) {}

  /** The operator of {@code sim}: it saves every version of every lease from now on, if {@code on}. */
  SimRestores(FaultSimulation sim, boolean on) {
    this.sim = sim;
    this.on = on;
    if (on) {
      sim.store.watch(FaultSimulation.COMPONENT, this::save);
    }
  }

  /** True when the restores are on. */
  boolean on() {
    return on;
  }

  /**
   * True when a restore wrote {@code shard}'s lease with a fencing token below the highest that
   * lease ever had, at or after the virtual instant {@code since}: an outsider rolled its
   * {@code leaseTransitions} (and epoch) back, which the fencing tokens assume nobody does.
   */
  boolean rolledBackSince(int shard, long since) {
    Long at = rolledBackAt.get(shard);
    return at != null && at >= since;
  }

  /** The faults of this family, in a fixed order. */
  static List<SimFault> faults() {
    return List.of(sim -> sim.restores.restore(false), sim -> sim.restores.restore(true));
  }

  /**
   * The kinds of restore a run's {@code trace} made, each once: {@code apply}, {@code delete and
   * create}, and {@code marked member copy} (to show that a search covers them); and {@code token
   * below one the owner never saw} if the checker met a fencing token outside its assumption
   * after a restore ({@link SimChecker}).
   */
  static Set<String> restoresIn(List<String> trace) {
    Set<String> kinds = new TreeSet<>();
    for (String line : trace) {
      if (line.contains(NOTE)) {
        kinds.add(line.contains("by delete and create") ? "delete and create" : "apply");
        if (line.contains("marked:")) {
          kinds.add("marked member copy");
        }
      }
      if (line.contains(SimChecker.TOKEN_UNSEEN)) {
        kinds.add("token below one the owner never saw");
      }
    }
    return kinds;
  }

  private void save(LeaseEvent event) {
    Lease lease = event.current();
    if (lease == null) {
      return;
    }
    if (lease.key().role() == LeaseRole.SHARD) {
      highestToken.merge(lease.key().shard(), SimChecker.token(lease), Math::max);
    }
    Saved saved = new Saved(lease, sim.time.elapsed());
    copies.computeIfAbsent(lease.key(), k -> new ArrayList<>()).add(saved);
    if (!marks(lease).isEmpty()) {
      marked.add(saved);
    }
  }

  /** One saved copy written back, by delete and create if {@code recreate}, else by an unconditional update. */
  private void restore(boolean recreate) {
    if (copies.isEmpty()) {
      return;
    }
    Saved saved;
    if (!marked.isEmpty() && sim.random.nextBoolean()) {
      saved = sim.pick(marked);
    } else {
      saved = sim.pick(copies.get(sim.pick(new ArrayList<>(copies.keySet()))));
    }
    Lease copy = saved.lease();
    Lease current = sim.store.get(copy.key());
    if (recreate && current != null) {
      try {
        sim.store.delete(current.withResourceVersion(null)); // no version precondition
      } catch (LeaseConflictException e) {
        throw new IllegalStateException("read a moment ago: " + current.key(), e);
      }
      if (current.key().role() == LeaseRole.MEMBER) {
        sim.drains.memberLeaseDeleted(current.key().replicaId());
      }
      current = null;
    }
    long highest = copy.key().role() == LeaseRole.SHARD ? highestToken.getOrDefault(copy.key().shard(), -1L) : -1;
    // A missing lease is created from the copy: a new creation time, as the API server sets it.
    Lease stored = sim.store.put(copy.withResourceVersion(null).withCreated(null));
    boolean rolledBack = SimChecker.token(stored) < highest && copy.key().role() == LeaseRole.SHARD;
    if (rolledBack) {
      rolledBackAt.put(copy.key().shard(), sim.time.read());
    }
    sim.note(NOTE + " of " + describe(copy) + " from " + saved.at() + " by " + (recreate ? "delete and create"
        : "apply") + (current == null ? "" : ", over " + describe(current))
        + (rolledBack ? "; its fencing token " + SimChecker.token(stored) + " is below the highest it had, " + highest
        : ""));
  }

  private static String describe(Lease lease) {
    String incarnation = lease.annotations().get(LeaseAnnotations.INCARNATION);
    List<String> marks = marks(lease);
    String freedBy = lease.annotations().get(LeaseAnnotations.FREED_BY);
    return lease.key() + " (holder " + (lease.isFree() ? "none" : lease.holder())
        + (incarnation == null ? "" : ", incarnation " + incarnation)
        + ", transitions " + lease.transitions()
        + (freedBy == null ? "" : ", freed by " + freedBy)
        + (marks.isEmpty() ? "" : ", marked: " + String.join(", ", marks)) + ")";
  }

  /** The marks of a member lease that tell peers an incarnation ended or released shards, as {@code name=value}. */
  private static List<String> marks(Lease lease) {
    List<String> marks = new ArrayList<>();
    if (lease.key().role() == LeaseRole.MEMBER) {
      for (String name : List.of(LeaseAnnotations.EXPIRED_BY, LeaseAnnotations.ENDED_INCARNATION,
          LeaseAnnotations.RELEASED_SHARDS)) {
        String value = lease.annotations().get(name);
        if (value != null) {
          marks.add(name.substring(name.indexOf('/') + 1) + "=" + value);
        }
      }
    }
    return marks;
  }
}
