/**
 * Which rule the API server applies to `metadata.name` of each of its own
 * kinds: most use NameIsDNSSubdomain; Namespaces are DNS labels
 * (ValidateNamespaceName), Services DNS-1035 labels (ValidateServiceName)
 * until 1.36, where RelaxedServiceNameValidation (beta, on by default:
 * kubernetes#136389) makes them DNS labels (`1st-service`), and RBAC's roles
 * and bindings path segments (pkg/apis/rbac/validation ValidateRBACName), so
 * `system:controller:foo` is a valid ClusterRole name; APIServices path
 * segments too, then `<version>.<group>`. A CertificateSigningRequest's own rule
 * (ValidateCertificateRequestName) accepts any name, so only the path-segment rule
 * every create ends with (rest.BeforeCreate) applies; an IPAddress is named by its
 * address (ValidateIPAddressName, IsValidIP's details) from 1.33, whose v1 it serves,
 * and 1.32's v1beta1 words the same check with net/netip's errors, not ported.
 */
import {
  isValidPathSegmentName,
  type NameRule,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  splitApiVersion,
} from "../names/index.js";
import { ipAddressNameRule } from "./validation/ip-allocation.js";

const byKind: Record<string, NameRule> = {
  "/Namespace": nameIsDNSLabel,
  // kube-aggregator ValidateAPIService's name rule: a path segment, then `<version>.<group>` (apiregistration.ts)
  "apiregistration.k8s.io/APIService": isValidPathSegmentName,
  "rbac.authorization.k8s.io/Role": isValidPathSegmentName,
  "rbac.authorization.k8s.io/ClusterRole": isValidPathSegmentName,
  "rbac.authorization.k8s.io/RoleBinding": isValidPathSegmentName,
  "rbac.authorization.k8s.io/ClusterRoleBinding": isValidPathSegmentName,
  "certificates.k8s.io/CertificateSigningRequest": isValidPathSegmentName,
};

export function nameRuleFor(apiVersion: string, kind: string, minor: number): NameRule {
  const { group } = splitApiVersion(apiVersion);
  if (group === "" && kind === "Service") return minor >= 36 ? nameIsDNSLabel : nameIsDNS1035Label;
  if (group === "networking.k8s.io" && kind === "IPAddress")
    return minor >= 33 ? ipAddressNameRule : isValidPathSegmentName;
  return byKind[`${group}/${kind}`] ?? nameIsDNSSubdomain;
}
