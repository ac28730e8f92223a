/**
 * Micrometer metrics for a {@link io.kumodo.convoy.sharding.Coordinator}; needs
 * {@code io.micrometer:micrometer-core} on the class path (an optional dependency).
 */
package io.kumodo.convoy.sharding.micrometer;
