/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class FlagsTest {

  private final Flags flags = new Flags("cmd [--port PORT] [--verbose]")
      .value("port", "PORT", "the port")
      .bool("verbose", "say more");

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
}
