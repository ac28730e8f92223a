/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --assignment} and {@code --advertise-address}: parsed, checked, and carried to the member lease. */
class CoordinatorOptionsAssignmentAndAddressTest {
  private static final Map<String, String> ENV = Map.of("POD_NAME", "cm-a", "POD_NAMESPACE", "convoy");

  @Test
  void defaultsAreModuloAndNoAddressAndTheFlagFormOmitsThem() {
    CoordinatorOptions o = parse("");
    assertThat(o.assignment()).isEqualTo(Assignment.modulo());
    assertThat(o.advertiseAddress()).isEmpty();
    assertThat(o.toString()).doesNotContain("--assignment", "--advertise-address");
  }

  @Test
  void balancedAndAnAddressAreParsedInBothFormsAndShownInTheFlagForm() {
    CoordinatorOptions o = parse("--assignment=balanced --advertise-address 10.1.2.3:8080");
    assertThat(o.assignment()).isEqualTo(Assignment.balanced());
    assertThat(o.advertiseAddress()).contains("10.1.2.3:8080");
    assertThat(o.toString()).endsWith(" --assignment=balanced --advertise-address=10.1.2.3:8080");
    assertThat(parse("--assignment balanced --assignment modulo").assignment()).isEqualTo(Assignment.modulo());
  }

  @ParameterizedTest
  @ValueSource(strings = {"Modulo", "round-robin", "", "balanced "})
  void badAssignmentNamesTheFlagAndTheAllowedValues(String value) {
    OptionsException e = catchThrowableOfType(OptionsException.class,
        () -> CoordinatorOptions.parse(List.of("--assignment=" + value), ENV, () -> null));
    assertThat(e.flag()).isEqualTo("--assignment");
    assertThat(e.getMessage()).contains("--assignment", "modulo", "balanced").doesNotContain("\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.1.2.3:8080", "convoy-cm-0.convoy.convoy-system.svc:443", "[fd00::1]:8080",
      "localhost:1", "host:65535"})
  void goodAddressesAreKeptAsGiven(String value) {
    assertThat(parse("--advertise-address " + value).advertiseAddress()).contains(value);
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.1.2.3", "10.1.2.3:", ":8080", "host:0", "host:65536", "host:08080", "host:80a",
      "fd00::1:8080", "[fd00::1]", "[zz::1]:80", "a b:80", "-host:80", "host.:80", "http://host:80"})
  void badAddressesNameTheFlagAndTheForm(String value) {
    OptionsException e = catchThrowableOfType(OptionsException.class,
        () -> CoordinatorOptions.parse(List.of("--advertise-address=" + value), ENV, () -> null));
    assertThat(e.flag()).isEqualTo("--advertise-address");
    assertThat(e.getMessage()).contains("--advertise-address", "host:port").doesNotContain("\n");
  }

  @Test
  void theBuiltCoordinatorPublishesTheAddressOnItsMemberLease() throws LeaseStoreException {
    InMemoryLeaseStore store = new InMemoryLeaseStore();
    CoordinatorOptions o = parse("--shards 4 --assignment balanced --advertise-address 10.1.2.3:8080");
    try (Coordinator c = o.coordinatorBuilder("convoy-cm", store).build()) {
      c.prime();
      Lease member = store.list("convoy-cm").stream().filter(l -> l.key().equals(LeaseKey.member("convoy-cm", "cm-a")))
          .findFirst().orElseThrow();
      assertThat(member.annotations()).containsEntry(LeaseAnnotations.ADDRESS, "10.1.2.3:8080");
    }
  }

  @Test
  void usageDocumentsBothFlagsBesideTheOthers() {
    assertThat(CoordinatorOptions.usage()).contains("--assignment name", "modulo or balanced",
        "the same on all replicas (default modulo)", "--advertise-address host:port", "(default none)");
  }

  @Test
  void lenientParseLeavesOtherFlagsButChecksThese() {
    CoordinatorOptions.Parsed p = CoordinatorOptions.parseKnown(
        List.of("--workers", "2", "--assignment", "balanced"), ENV, () -> null);
    assertThat(p.unrecognized()).containsExactly("--workers", "2");
    assertThat(p.options().assignment()).isEqualTo(Assignment.balanced());
  }

  private static CoordinatorOptions parse(String args) {
    List<String> list = args.isEmpty() ? List.of() : Arrays.asList(args.split(" "));
    return CoordinatorOptions.parse(list, ENV, () -> null);
  }
}
