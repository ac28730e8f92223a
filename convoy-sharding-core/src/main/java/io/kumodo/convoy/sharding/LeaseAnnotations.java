package io.kumodo.convoy.sharding;

/**
 * The annotations that carry sharding metadata on leases ({@link Lease#annotations()}; on
 * Kubernetes, {@code metadata.annotations} of the Lease objects, so {@code kubectl annotate}
 * changes them).
 */
public final class LeaseAnnotations {
  /** On member leases: the name of the replica's {@link Assignment}, so a mismatch is visible. */
  public static final String ASSIGNMENT = "sharding.convoy.kumodo.io/assignment";

  private LeaseAnnotations() {}
}
