/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlagsTest {

  private final Flags flags = new Flags("cmd [--port PORT] [--verbose]")
      .value("port", "PORT", "the port")
      .bool("verbose", "say more");
  private final Flags bench = new Flags("bench [--sizes N,N] [--lease D]")
      .value("sizes", "N,N", "sizes")
      .value("names", "NAME,NAME", "names")
      .value("lease", "D", "lease");

  @Test
  void readsAValueFromTheNextArgumentOrAfterTheEqualsSign() throws Exception {
    assertThat(flags.parse(List.of("--port", "8080")).value("port")).contains("8080");
    assertThat(flags.parse(List.of("--port=8081")).value("port")).contains("8081");
  }

  @Test
  void aRepeatedFlagKeepsItsLastValue() throws Exception {
    assertThat(flags.parse(List.of("--port", "1", "--port=2")).value("port")).contains("2");
  }

  @Test
  void aMissingValueFlagFallsBackToTheDefault() throws Exception {
    ParsedFlags parsed = flags.parse(List.of());
    assertThat(parsed.value("port")).isEmpty();
    assertThat(parsed.value("port", "0")).isEqualTo("0");
    assertThat(parsed.intValue("port", 7, 0, 65535)).isEqualTo(7);
  }

  @Test
  void aBooleanFlagIsSetByItsNameOrByTrueAndClearedByFalse() throws Exception {
    assertThat(flags.parse(List.of()).bool("verbose")).isFalse();
    assertThat(flags.parse(List.of("--verbose")).bool("verbose")).isTrue();
    assertThat(flags.parse(List.of("--verbose=true")).bool("verbose")).isTrue();
    assertThat(flags.parse(List.of("--verbose", "--verbose=false")).bool("verbose")).isFalse();
  }

  @Test
  void aBooleanFlagWithADefaultOfTrueIsClearedOnlyByAnExplicitFalse() throws Exception {
    assertThat(flags.parse(List.of()).bool("verbose", true)).isTrue();
    assertThat(flags.parse(List.of("--verbose=false")).bool("verbose", true)).isFalse();
    assertThat(flags.parse(List.of("--verbose=false", "--verbose")).bool("verbose", true)).isTrue();
    assertThat(flags.parse(List.of()).bool("verbose", false)).isFalse();
  }

  @Test
  void helpIsRecognisedInBothForms() throws Exception {
    assertThat(flags.parse(List.of("--help")).help()).isTrue();
    assertThat(flags.parse(List.of("-h")).help()).isTrue();
    assertThat(flags.parse(List.of("--port", "1")).help()).isFalse();
  }

  @Test
  void helpIsAskedBeforeAnyDoubleDashWhateverElseTheArgumentsHold() {
    assertThat(Flags.helpAsked(List.of("--bogus", "--port", "x", "-h"))).isTrue();
    assertThat(Flags.helpAsked(List.of("a", "--help"))).isTrue();
    assertThat(Flags.helpAsked(List.of("--", "--help"))).isFalse();
    assertThat(Flags.helpAsked(List.of("--port", "1"))).isFalse();
  }

  @Test
  void wordsThatAreNotFlagsArePositionalAndDoubleDashEndsTheFlags() throws Exception {
    ParsedFlags parsed = flags.parse(List.of("a", "--verbose", "b", "--", "--port", "-x"));
    assertThat(parsed.positional()).containsExactly("a", "b", "--port", "-x");
    assertThat(parsed.bool("verbose")).isTrue();
    assertThatThrownBy(parsed::requireNoPositional)
        .isInstanceOf(UsageException.class).hasMessage("unexpected argument: 'a'");
  }

  @Test
  void anUnknownFlagIsAUsageErrorNamingTheFlag() {
    assertThatThrownBy(() -> flags.parse(List.of("--bogus", "1")))
        .isInstanceOf(UsageException.class).hasMessage("unknown flag: --bogus");
    assertThatThrownBy(() -> flags.parse(List.of("--bogus=1")))
        .isInstanceOf(UsageException.class).hasMessage("unknown flag: --bogus");
    assertThatThrownBy(() -> flags.parse(List.of("-p")))
        .isInstanceOf(UsageException.class).hasMessage("unknown flag: -p");
  }

  @Test
  void aValueFlagWithoutAValueIsAUsageErrorNamingTheFlag() {
    for (List<String> args : List.of(List.of("--port"), List.of("--port="),
        List.of("--port", "--verbose"))) {
      assertThatThrownBy(() -> flags.parse(args))
          .isInstanceOf(UsageException.class).hasMessage("flag --port needs a value");
    }
  }

  @Test
  void aBooleanFlagWithANonBooleanValueIsAUsageError() {
    assertThatThrownBy(() -> flags.parse(List.of("--verbose=yes")))
        .isInstanceOf(UsageException.class)
        .hasMessage("invalid value for --verbose: 'yes' (want true or false)");
  }

  @Test
  void intValueRejectsNonIntegersAndOutOfRangeValuesNamingTheFlag() throws Exception {
    assertThatThrownBy(() -> flags.parse(List.of("--port", "abc")).intValue("port", 0, 0, 65535))
        .isInstanceOf(UsageException.class)
        .hasMessage("invalid value for --port: 'abc' is not an integer");
    assertThatThrownBy(() -> flags.parse(List.of("--port", "70000")).intValue("port", 0, 0, 65535))
        .isInstanceOf(UsageException.class)
        .hasMessage("invalid value for --port: 70000 is not in 0..65535");
    assertThat(flags.parse(List.of("--port", "65535")).intValue("port", 0, 0, 65535))
        .isEqualTo(65535);
  }

  @Test
  void usageListsTheSynopsisEveryFlagAndHelp() {
    assertThat(flags.usage())
        .startsWith("usage: cmd [--port PORT] [--verbose]\n")
        .contains("--port PORT", "the port", "--verbose", "say more", "-h, --help");
  }

  @Test
  void askingForAnUndeclaredFlagIsAProgrammingError() throws Exception {
    ParsedFlags parsed = flags.parse(List.of());
    assertThatThrownBy(() -> parsed.value("nope")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void declaringAFlagTwiceOrDeclaringHelpIsAProgrammingError() {
    assertThatThrownBy(() -> new Flags("x").bool("a", "").value("a", "A", ""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Flags("x").bool("help", ""))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void intListReadsCommaSeparatedIntegersEachInRangeOrTheDefault() throws Exception {
    assertThat(bench.parse(List.of("--sizes", "3, 10,30")).intList("sizes", "1", 1, 100)).containsExactly(3, 10, 30);
    assertThat(bench.parse(List.of()).intList("sizes", "1,2", 1, 100)).containsExactly(1, 2);
    assertThatThrownBy(() -> bench.parse(List.of("--sizes", "3,x")).intList("sizes", "1", 1, 100))
        .isInstanceOf(UsageException.class)
        .hasMessage("invalid value for --sizes: 'x' is not an integer");
    assertThatThrownBy(() -> bench.parse(List.of("--sizes=3,0")).intList("sizes", "1", 1, 100))
        .isInstanceOf(UsageException.class)
        .hasMessage("invalid value for --sizes: 0 is not in 1..100");
  }

  @Test
  void listReadsCommaSeparatedWordsOrTheDefault() throws Exception {
    assertThat(bench.parse(List.of("--names", "modulo,balanced")).list("names", "x")).containsExactly("modulo",
        "balanced");
    assertThat(bench.parse(List.of()).list("names", "modulo")).containsExactly("modulo");
  }

  @Test
  void durationIsGreaterThanZeroAndNamesTheFlagAndTheValueWhenNot() throws Exception {
    assertThat(bench.parse(List.of("--lease", "1m30s")).duration("lease", "4s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(bench.parse(List.of()).duration("lease", "500ms")).isEqualTo(Duration.ofMillis(500));
    assertThatThrownBy(() -> bench.parse(List.of("--lease", "0s")).duration("lease", "4s"))
        .isInstanceOf(UsageException.class)
        .hasMessage("--lease: must be greater than 0s: \"0s\"");
    assertThatThrownBy(() -> bench.parse(List.of("--lease", "soon")).duration("lease", "4s"))
        .isInstanceOf(UsageException.class)
        .hasMessageStartingWith("--lease: ").hasMessageEndingWith(": \"soon\"");
  }

  @Test
  void aDurationInARangeNamesTheRangeWhenOutside() throws Exception {
    Duration second = Duration.ofSeconds(1);
    Duration hour = Duration.ofHours(1);
    assertThat(bench.parse(List.of("--lease", "2s")).duration("lease", "4s", second, hour))
        .isEqualTo(Duration.ofSeconds(2));
    assertThatThrownBy(() -> bench.parse(List.of("--lease", "999ms")).duration("lease", "4s", second, hour))
        .isInstanceOf(UsageException.class)
        .hasMessage("invalid value for --lease: 999ms is not in 1s..1h0m0s");
  }
}
