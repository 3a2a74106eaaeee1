/**
 * Which rule the API server applies to `metadata.name` of each of its own
 * kinds: most use NameIsDNSSubdomain; Namespaces are DNS labels
 * (ValidateNamespaceName), Services DNS-1035 labels (ValidateServiceName)
 * until 1.36, where RelaxedServiceNameValidation (beta, on by default:
 * kubernetes#136389) makes them DNS labels (`1st-service`), and RBAC's roles
 * and bindings path segments (pkg/apis/rbac/validation ValidateRBACName), so
 * `system:controller:foo` is a valid ClusterRole name; APIServices path
 * segments too, then `<version>.<group>`.
 */
import {
  isValidPathSegmentName,
  type NameRule,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  splitApiVersion,
} from "../names/index.js";

const byKind: Record<string, NameRule> = {
  "/Namespace": nameIsDNSLabel,
  // kube-aggregator ValidateAPIService's name rule: a path segment, then `<version>.<group>` (apiregistration.ts)
  "apiregistration.k8s.io/APIService": isValidPathSegmentName,
  "rbac.authorization.k8s.io/Role": isValidPathSegmentName,
  "rbac.authorization.k8s.io/ClusterRole": isValidPathSegmentName,
  "rbac.authorization.k8s.io/RoleBinding": isValidPathSegmentName,
  "rbac.authorization.k8s.io/ClusterRoleBinding": isValidPathSegmentName,
};

export function nameRuleFor(apiVersion: string, kind: string, minor: number): NameRule {
  const { group } = splitApiVersion(apiVersion);
  if (group === "" && kind === "Service") return minor >= 36 ? nameIsDNSLabel : nameIsDNS1035Label;
  return byKind[`${group}/${kind}`] ?? nameIsDNSSubdomain;
}
