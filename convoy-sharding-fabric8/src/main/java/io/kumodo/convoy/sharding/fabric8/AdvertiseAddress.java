/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import java.util.regex.Pattern;

/**
 * Checks the value of {@code --advertise-address}: {@code host:port}, where the host is a DNS
 * name or an IPv4 address (letters, digits, {@code -} and {@code .}, at most 253 characters) or
 * an IPv6 address in brackets ({@code [fd00::1]:8080}), and the port a decimal from 1 to 65535.
 */
final class AdvertiseAddress {
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9.]*[A-Za-z0-9])?");
  private static final Pattern IPV6 = Pattern.compile("\\[[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*]");
  private static final Pattern PORT = Pattern.compile("[1-9][0-9]{0,4}");
  private static final int MAX_HOST = 253;

  private AdvertiseAddress() {}

  /**
   * Returns {@code value} when it is a valid {@code host:port}.
   *
   * @throws OptionsException naming {@code --advertise-address}, the value and the form
   */
  static String check(String value) {
    int colon = value.startsWith("[") ? value.indexOf("]:") + 1 : value.lastIndexOf(':');
    if (colon > 0) {
      String host = value.substring(0, colon);
      String port = value.substring(colon + 1);
      boolean hostOk = host.startsWith("[") ? IPV6.matcher(host).matches()
          : host.length() <= MAX_HOST && HOST.matcher(host).matches();
      if (hostOk && PORT.matcher(port).matches() && Integer.parseInt(port) <= 65535) {
        return value;
      }
    }
    throw new OptionsException(CoordinatorOptions.ADVERTISE_ADDRESS, CoordinatorOptions.ADVERTISE_ADDRESS
        + " must be host:port, such as 10.1.2.3:8080, convoy-cm-0.convoy:8080 or [fd00::1]:8080, with a port "
        + "from 1 to 65535: " + CoordinatorOptions.quote(value));
  }
}
