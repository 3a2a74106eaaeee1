/**
 * Kubernetes authorizer library (apiserver/pkg/cel/library/authz.go, with the
 * selectors of AuthzSelectors): the calls admission expressions make on
 * `authorizer` (`authorizer.group('apps').resource('deployments').check('create').allowed()`).
 * Only checked: kunion compiles admission expressions (admission.ts) and never
 * runs them, and no rule it runs has an authorizer, so no runtime function
 * stands behind these overloads.
 */
import { type Overload, parseSignatures } from "../language/signatures.js";

export const AUTHZ_OVERLOADS: readonly Overload[] = parseSignatures(`Authorizer.path(string) -> PathCheck
Authorizer.group(string) -> GroupCheck
Authorizer.serviceAccount(string, string) -> Authorizer
GroupCheck.resource(string) -> ResourceCheck
ResourceCheck.subresource(string) -> ResourceCheck
ResourceCheck.namespace(string) -> ResourceCheck
ResourceCheck.name(string) -> ResourceCheck
ResourceCheck.fieldSelector(string) -> ResourceCheck
ResourceCheck.labelSelector(string) -> ResourceCheck
PathCheck.check(string) -> Decision
ResourceCheck.check(string) -> Decision
Decision.allowed() -> bool
Decision.reason() -> string
Decision.errored() -> bool
Decision.error() -> string`);
