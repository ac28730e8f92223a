/**
 * Virtual time and simulation support: run many coordinators deterministically, without
 * sleeping, over an {@link io.kumodo.convoy.sharding.InMemoryLeaseStore}.
 */
package io.kumodo.convoy.sharding.sim;
