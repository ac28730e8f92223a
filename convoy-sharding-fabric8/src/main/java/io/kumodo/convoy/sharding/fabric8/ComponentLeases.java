package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kumodo.convoy.sharding.Lease;
import io.kumodo.convoy.sharding.LeaseEvent;
import io.kumodo.convoy.sharding.LeaseStoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watch-backed cache of one component's leases: one fabric8 informer on the lease namespace,
 * filtered by the component label, plus the decoded records. Each object version is decoded
 * once, so a malformed object is logged once per version, not once per tick.
 *
 * <p>Started on construction, without blocking; {@link #list} waits for the first sync. Once
 * the informer stops on its own (fabric8 gives up after some watch errors) {@link #isStopped()}
 * is true and the owner replaces this cache.
 */
final class ComponentLeases implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(KubernetesLeaseStore.class);

  private final String component;
  private final String namespace;
  private final SharedIndexInformer<io.fabric8.kubernetes.api.model.coordination.v1.Lease> informer;
  private final CompletableFuture<Void> synced;
  private final Map<String, Version> decoded = new ConcurrentHashMap<>();

  /** Starts the informer; {@code listeners} are called on every add, update and delete. */
  ComponentLeases(KubernetesClient client, String namespace, String component,
      List<Consumer<LeaseEvent>> listeners) {
    this.component = component;
    this.namespace = namespace;
    this.informer = client.leases().inNamespace(namespace)
        .withLabel(LeaseNames.COMPONENT_LABEL, component)
        .runnableInformer(0);
    informer.addEventHandler(new Handler(listeners));
    this.synced = informer.start().toCompletableFuture();
    informer.stopped().whenComplete((v, e) -> {
      if (e != null && synced.isDone() && !synced.isCompletedExceptionally()) {
        log.warn("lease informer of component {} in namespace {} stopped; it restarts at the next list: {}",
            component, namespace, e.toString());
      }
    });
  }

  /**
   * The well-formed leases in the cache, after waiting up to {@code timeout} for the first sync.
   *
   * @throws LeaseStoreException when the first sync failed or did not finish in time
   */
  List<Lease> list(Duration timeout) throws LeaseStoreException {
    try {
      synced.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new LeaseStoreException("the lease cache of component " + component + " in namespace " + namespace
          + " did not sync within " + timeout.toMillis() + " ms", e);
    } catch (ExecutionException e) {
      throw new LeaseStoreException("listing the leases of component " + component + " in namespace " + namespace
          + " failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LeaseStoreException("interrupted while waiting for the lease cache of " + component, e);
    }
    List<io.fabric8.kubernetes.api.model.coordination.v1.Lease> objects = informer.getStore().list();
    List<Lease> result = new ArrayList<>(objects.size());
    for (io.fabric8.kubernetes.api.model.coordination.v1.Lease object : objects) {
      Lease lease = decode(object);
      if (lease != null) {
        result.add(lease);
      }
    }
    return result;
  }

  /** The cached object named {@code name}, or null. */
  io.fabric8.kubernetes.api.model.coordination.v1.Lease cached(String name) {
    return informer.getStore().getByKey(namespace + "/" + name);
  }

  /** True once the informer stopped, by {@link #close()} or on its own after an error. */
  boolean isStopped() {
    return informer.stopped().toCompletableFuture().isDone();
  }

  /** Stops the informer. */
  @Override
  public void close() {
    informer.stop();
  }

  /** The record of {@code object}, decoded once per version; null (logged once) if malformed. */
  private Lease decode(io.fabric8.kubernetes.api.model.coordination.v1.Lease object) {
    String name = object.getMetadata().getName();
    String version = object.getMetadata().getResourceVersion();
    Version v = decoded.compute(name, (k, old) -> {
      if (old != null && old.resourceVersion != null && old.resourceVersion.equals(version)) {
        return old;
      }
      LeaseCodec.Decoded d = LeaseCodec.decode(component, object);
      if (d.problem() != null) {
        log.warn("ignoring Lease {}/{} (resourceVersion {}) labelled {}={}: {}", namespace, name, version,
            LeaseNames.COMPONENT_LABEL, component, d.problem());
      }
      return new Version(version, d.lease());
    });
    return v.lease;
  }

  private record Version(String resourceVersion, Lease lease) {}

  /** Forwards every event to the listeners and forgets the decoded record of deleted objects. */
  private final class Handler
      implements ResourceEventHandler<io.fabric8.kubernetes.api.model.coordination.v1.Lease> {
    private final List<Consumer<LeaseEvent>> listeners;

    Handler(List<Consumer<LeaseEvent>> listeners) {
      this.listeners = listeners;
    }

    @Override
    public void onAdd(io.fabric8.kubernetes.api.model.coordination.v1.Lease obj) {
      fire(null, decode(obj));
    }

    @Override
    public void onUpdate(io.fabric8.kubernetes.api.model.coordination.v1.Lease oldObj,
        io.fabric8.kubernetes.api.model.coordination.v1.Lease newObj) {
      Lease before = quietly(oldObj);
      fire(before, decode(newObj));
    }

    @Override
    public void onDelete(io.fabric8.kubernetes.api.model.coordination.v1.Lease obj, boolean finalStateUnknown) {
      Lease before = quietly(obj);
      if (obj != null && obj.getMetadata() != null && obj.getMetadata().getName() != null) {
        decoded.remove(obj.getMetadata().getName());
      }
      fire(before, null);
    }

    /** The record of an old object version, without logging it again if it is malformed. */
    private Lease quietly(io.fabric8.kubernetes.api.model.coordination.v1.Lease object) {
      if (object == null || object.getMetadata() == null) {
        return null;
      }
      Version v = decoded.get(object.getMetadata().getName());
      if (v != null && v.resourceVersion != null && v.resourceVersion.equals(object.getMetadata().getResourceVersion())) {
        return v.lease;
      }
      try {
        return LeaseCodec.decode(component, object).lease();
      } catch (RuntimeException e) {
        return null;
      }
    }

    private void fire(Lease before, Lease after) {
      if (before == null && after == null) {
        return; // a malformed object: nothing the coordinators can use
      }
      LeaseEvent event = new LeaseEvent(before, after);
      for (Consumer<LeaseEvent> listener : listeners) {
        try {
          listener.accept(event);
        } catch (RuntimeException e) {
          log.error("lease watch listener of component {} threw; continuing", component, e);
        }
      }
    }
  }
}
