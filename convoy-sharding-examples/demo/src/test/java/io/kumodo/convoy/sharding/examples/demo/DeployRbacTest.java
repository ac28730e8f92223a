/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import org.junit.jupiter.api.Test;

/** The RBAC in {@code deploy/}: the library's lease Role alone, the controller's apart. */
class DeployRbacTest {

  @Test
  void theLeaseRoleGrantsExactlyTheSixLeaseVerbsInTheLeaseNamespaceAndNothingElse() {
    Role role = DeployManifests.one("role.yaml", Role.class);
    assertThat(role.getMetadata().getNamespace()).isEqualTo("convoy-system");
    assertThat(role.getRules()).singleElement().satisfies(rule -> {
      assertThat(rule.getApiGroups()).containsExactly("coordination.k8s.io");
      assertThat(rule.getResources()).containsExactly("leases");
      assertThat(rule.getVerbs())
          .containsExactlyInAnyOrder("get", "list", "watch", "create", "update", "delete");
      assertThat(rule.getResourceNames()).isNullOrEmpty();
    });
  }

  @Test
  void theControllerRoleCoversConfigMapsAndEventsInTheTargetNamespaceOnly() {
    Role role = DeployManifests.one("controller-role.yaml", Role.class);
    assertThat(role.getMetadata().getNamespace()).isEqualTo("demo");
    assertThat(role.getRules()).hasSize(2);
    PolicyRule configMaps = role.getRules().get(0);
    assertThat(configMaps.getApiGroups()).containsExactly("");
    assertThat(configMaps.getResources()).containsExactly("configmaps");
    assertThat(configMaps.getVerbs())
        .containsExactlyInAnyOrder("get", "list", "watch", "update", "patch");
    PolicyRule events = role.getRules().get(1);
    assertThat(events.getApiGroups()).containsExactly("");
    assertThat(events.getResources()).containsExactly("events");
    assertThat(events.getVerbs()).containsExactly("create");
    assertThat(role.getRules()).noneMatch(rule -> rule.getResources().contains("leases"));
  }

  @Test
  void eachRoleBindingBindsItsRoleInItsNamespaceToTheServiceAccount() {
    ServiceAccount account = DeployManifests.one("serviceaccount.yaml", ServiceAccount.class);
    assertThat(account.getMetadata().getNamespace()).isEqualTo("convoy-system");
    assertBinds("rolebinding.yaml", "role.yaml", account);
    assertBinds("controller-rolebinding.yaml", "controller-role.yaml", account);
  }

  private static void assertBinds(String bindingFile, String roleFile, ServiceAccount account) {
    RoleBinding binding = DeployManifests.one(bindingFile, RoleBinding.class);
    Role role = DeployManifests.one(roleFile, Role.class);
    assertThat(binding.getMetadata().getNamespace()).isEqualTo(role.getMetadata().getNamespace());
    assertThat(binding.getRoleRef().getApiGroup()).isEqualTo("rbac.authorization.k8s.io");
    assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
    assertThat(binding.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
    assertThat(binding.getSubjects()).singleElement().satisfies((Subject subject) -> {
      assertThat(subject.getKind()).isEqualTo("ServiceAccount");
      assertThat(subject.getName()).isEqualTo(account.getMetadata().getName());
      assertThat(subject.getNamespace()).isEqualTo(account.getMetadata().getNamespace());
    });
  }
}
