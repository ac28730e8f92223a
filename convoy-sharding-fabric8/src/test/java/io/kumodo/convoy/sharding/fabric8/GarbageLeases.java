/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

/**
 * A seeded generator of Lease JSON labelled for a component, of the kinds an operator, another
 * tool or a bug could leave in the lease namespace: no spec, bad durations, holders that are not
 * members, names that do not parse or belong to another component, indexes out of range, wrong
 * role labels, garbage and huge strings, times in formats fabric8 cannot read, fields of the
 * wrong type. Some replace the real lease of a shard or of a live replica. Each comes with what
 * the store must make of it. Metadata of the wrong JSON type (annotations that are not a string
 * map) is not generated: no API server stores it, and no fabric8 client, generic or typed, can
 * list it.
 */
final class GarbageLeases {
  /**
   * One object to write.
   *
   * @param kind what it is, for messages
   * @param object the JSON object
   * @param replaces true when it replaces an existing lease of that name
   * @param malformed true when the store must skip it and log it once per version
   * @param blocks true when it keeps the i mod N rule from holding until it is deleted
   */
  record Garbage(String kind, Map<String, Object> object, boolean replaces, boolean malformed, boolean blocks) {
    @SuppressWarnings("unchecked")
    String name() {
      return (String) ((Map<String, Object>) object.get("metadata")).get("name");
    }
  }

  private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
      .withZone(ZoneOffset.UTC);
  private static final List<String> BAD_TIMES = List.of("2026-11-29T10:00:05Z", "2026-11-29T10:00:05.123Z",
      "2026-11-29T10:00:05.123456789Z", "2026-11-29T10:00:05.123456+02:00", "2026-11-29T10:00:05.123456",
      "2026-11-29 10:00:05.123456Z", "garbage", "2026-13-45T99:99:99.999999Z", "yesterday");
  private static final List<Object> BAD_TYPED_SPECS = List.of("a string", List.of(), 42, true);

  private final Random random;
  private final String component;
  private final int shards;
  private final List<String> replicas;
  private int serial;

  /** A generator for {@code component} with {@code shards} shards and the live {@code replicas}. */
  GarbageLeases(long seed, String component, int shards, List<String> replicas) {
    this.random = new Random(seed);
    this.component = component;
    this.shards = shards;
    this.replicas = replicas;
  }

  /** The next object. */
  Garbage next() {
    serial++;
    List<Supplier<Garbage>> kinds = List.of(this::noSpec, this::badDuration, this::holderNotAMember,
        this::unparseableName, this::indexOutOfRange, this::memberOfAnotherComponent, this::wrongRole,
        this::garbageAnnotations, this::hugeStrings, this::badTime, this::wrongTypes, this::ghostMember,
        this::memberReleasedByAnOutsider, this::transitionsAtTheLimit, this::hugeDeclaredDuration);
    return kinds.get(random.nextInt(kinds.size())).get();
  }

  private Garbage noSpec() {
    boolean real = random.nextBoolean();
    String name = real ? realShard() : shardName(shards + random.nextInt(100));
    return new Garbage("no spec", RawLeases.lease(name, shardLabels(name), null, null, false), real, true, real);
  }

  private Garbage badDuration() {
    boolean real = random.nextInt(3) == 0;
    String name = real ? realShard() : shardName(shards + random.nextInt(100));
    Map<String, Object> spec = spec(ghost(), null);
    spec.put("leaseDurationSeconds", pick(null, 0, -1, -2_147_483_648));
    return new Garbage("bad duration", RawLeases.lease(name, shardLabels(name), null, spec, true), real, true, real);
  }

  private Garbage holderNotAMember() {
    boolean real = random.nextBoolean();
    String name = real ? realShard() : shardName(shards + random.nextInt(1_000_000));
    Map<String, Object> spec = spec(ghost(), 1 + random.nextInt(2));
    return new Garbage("holder not a member", RawLeases.lease(name, shardLabels(name), null, spec, true), real, false,
        false);
  }

  private Garbage unparseableName() {
    String name = component + "-shard-" + pick("x", "007", "-3", "1e3", "99999999999", "", "1.5", "0x1f", "3a");
    Map<String, String> labels = labels("shard");
    labels.put(LeaseNames.SHARD_LABEL, pick("x", "7", "-3", "", "٣"));
    return new Garbage("unparseable name", RawLeases.lease(name, labels, null, spec(ghost(), 2), true),
        false, true, false);
  }

  private Garbage indexOutOfRange() {
    int index = shards + random.nextInt(1_000_000_000 - shards);
    String name = shardName(index);
    return new Garbage("index out of range", RawLeases.lease(name, shardLabels(name), null, spec(pick("", ghost()), 2),
        true), false, false, false);
  }

  private Garbage memberOfAnotherComponent() {
    String id = "obs-" + serial;
    return new Garbage("member lease named for another component", RawLeases.lease("convoy-obs-member-" + id,
        labels("member"), Map.of(), spec(id, 2), true), false, true, false);
  }

  private Garbage wrongRole() {
    Map<String, String> labels = labels(pick("leader", "", "MEMBER", "Shard", "shards", "member "));
    if (random.nextInt(4) == 0) {
      labels.remove(LeaseNames.ROLE_LABEL);
    }
    return new Garbage("wrong role label", RawLeases.lease(component + "-role-" + serial, labels, null,
        spec(ghost(), 2), true), false, true, false);
  }

  private Garbage garbageAnnotations() {
    String id = ghost();
    Map<String, Object> annotations = new HashMap<>();
    annotations.put("garbage/" + serial, junk());
    annotations.put("sharding.convoy.kumodo.io/replica-id", pick(junk(), id + "-other", ""));
    String name = LeaseNames.memberName(component, id);
    return new Garbage("member lease with garbage annotations (its replica ID is its name's)", RawLeases.lease(name,
        labels("member"), annotations, spec(id, 2), true), false, false, false);
  }

  private Garbage hugeStrings() {
    String huge = junk().repeat(1 + 100_000 / 16);
    String name = shardName(shards + random.nextInt(100));
    Map<String, Object> annotations = Map.of("huge", huge);
    return new Garbage("huge strings", RawLeases.lease(name, shardLabels(name), annotations, spec(huge, 2), true),
        false, false, false);
  }

  private Garbage badTime() {
    boolean real = random.nextInt(3) == 0;
    String name = real ? realShard() : shardName(shards + random.nextInt(100));
    Map<String, Object> spec = spec(ghost(), 2);
    spec.put(pick("renewTime", "acquireTime"), pick(BAD_TIMES.toArray()));
    return new Garbage("time fabric8 cannot read", RawLeases.lease(name, shardLabels(name), null, spec, true), real,
        true, real);
  }

  private Garbage wrongTypes() {
    String name = shardName(shards + random.nextInt(100));
    Map<String, Object> spec = spec(ghost(), 2);
    Object whole = null;
    switch (random.nextInt(5)) {
      case 0 -> spec.put("leaseDurationSeconds", pick("thirty", 2.5, 4_294_967_296L, true));
      case 1 -> spec.put("holderIdentity", pick(Map.of("name", "x"), List.of("x")));
      case 2 -> spec.put("leaseTransitions", pick(1.5, 99_999_999_999L, "many"));
      case 3 -> whole = pick(BAD_TYPED_SPECS.toArray());
      default -> spec.put("leaseTransitions", -1 - random.nextInt(5));
    }
    Object body = whole != null ? whole : spec;
    return new Garbage("field of the wrong type", RawLeases.lease(name, shardLabels(name), null, body, true), false,
        true, false);
  }

  private Garbage ghostMember() {
    String id = ghost();
    Map<String, Object> spec = spec(id, 2);
    return new Garbage("well-formed member lease of a replica that does not run", RawLeases.lease(
        LeaseNames.memberName(component, id), labels("member"), Map.of(), spec,
        true), false, false, false);
  }

  private Garbage memberReleasedByAnOutsider() {
    String id = pick(replicas.toArray(new String[0]));
    boolean broken = random.nextInt(3) == 0;
    Map<String, Object> spec = spec("", 2);
    Map<String, Object> annotations = new HashMap<>();
    if (broken) {
      annotations.put("team", null);
    }
    return new Garbage(broken ? "live replica's member lease overwritten with a null annotation"
        : "live replica's member lease released by an outsider", RawLeases.lease(LeaseNames.memberName(component, id),
        labels("member"), annotations, spec, true), true, broken, broken);
  }

  private Garbage transitionsAtTheLimit() {
    String name = realShard();
    Map<String, Object> spec = spec(ghost(), 2);
    spec.put("leaseTransitions", Integer.MAX_VALUE);
    return new Garbage("transitions at the int32 limit", RawLeases.lease(name, shardLabels(name), null, spec, true),
        true, false, true);
  }

  private Garbage hugeDeclaredDuration() {
    String name = realShard();
    Map<String, Object> spec = spec(ghost(), Integer.MAX_VALUE);
    return new Garbage("held by a stranger for 68 years", RawLeases.lease(name, shardLabels(name), null, spec, true),
        true, false, true);
  }

  // ---------------------------------------------------------------------------------------------

  private Map<String, Object> spec(String holder, Integer seconds) {
    String now = MICROS.format(Instant.now().truncatedTo(ChronoUnit.MICROS));
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("holderIdentity", holder);
    spec.put("leaseDurationSeconds", seconds);
    spec.put("acquireTime", now);
    spec.put("renewTime", now);
    spec.put("leaseTransitions", random.nextInt(1_000));
    return spec;
  }

  private Map<String, String> labels(String role) {
    Map<String, String> labels = new HashMap<>();
    labels.put(LeaseNames.COMPONENT_LABEL, component);
    labels.put(LeaseNames.ROLE_LABEL, role);
    return labels;
  }

  private Map<String, String> shardLabels(String name) {
    Map<String, String> labels = labels("shard");
    labels.put(LeaseNames.SHARD_LABEL, name.substring(LeaseNames.shardPrefix(component).length()));
    return labels;
  }

  private String shardName(int index) {
    return LeaseNames.shardName(component, index);
  }

  private String realShard() {
    return shardName(random.nextInt(shards));
  }

  private String ghost() {
    return "ghost-" + serial;
  }

  /** Random characters: ASCII, accents, right-to-left, zero-width, emoji. */
  private String junk() {
    String alphabet = "aZ09-._/ éü漢字עברית\u200b\u202e😀\"'\\{}<>";
    StringBuilder sb = new StringBuilder();
    int n = 1 + random.nextInt(16);
    for (int i = 0; i < n; i++) {
      sb.appendCodePoint(alphabet.codePoints().toArray()[random.nextInt((int) alphabet.codePoints().count())]);
    }
    return sb.toString();
  }

  @SafeVarargs
  private <T> T pick(T... values) {
    return values[random.nextInt(values.length)];
  }
}
