/**
 * The failover benchmark: replicas with the real {@code KubernetesLeaseStore}, each with its own
 * fabric8 client, on the examples' mock API server; handover times measured from the replicas'
 * OnChange callbacks, API requests counted by a client interceptor per replica.
 */
package io.kumodo.convoy.sharding.examples.bench.failover;
