package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.ArrayList;
import java.util.List;

/** Records the events it is given, in order; thread-safe. */
final class RecordingHandler<T extends HasMetadata> implements ResourceEventHandler<T> {
  /** One event; {@code obj} is the new object of an update. */
  record Event<T>(String type, String key, T obj, T old, boolean finalStateUnknown) {}

  private final List<Event<T>> events = new ArrayList<>();
  private int lists;

  @Override
  public synchronized void onAdd(T obj) {
    events.add(new Event<>("add", ShardLabels.objectKey(obj), obj, null, false));
  }

  @Override
  public synchronized void onUpdate(T oldObj, T newObj) {
    events.add(new Event<>("update", ShardLabels.objectKey(newObj), newObj, oldObj, false));
  }

  @Override
  public synchronized void onDelete(T obj, boolean deletedFinalStateUnknown) {
    events.add(new Event<>("delete", ShardLabels.objectKey(obj), obj, null, deletedFinalStateUnknown));
  }

  @Override
  public synchronized void onList(String resourceVersion, boolean synced) {
    lists++;
  }

  synchronized List<Event<T>> events() {
    return new ArrayList<>(events);
  }

  synchronized List<String> keys(String type) {
    return events.stream().filter(e -> e.type().equals(type)).map(Event::key).toList();
  }

  synchronized int lists() {
    return lists;
  }

  synchronized void clear() {
    events.clear();
  }
}
