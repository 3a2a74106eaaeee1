/**
 * coordination.k8s.io/v1 Leases as the API server validates them on create
 * (kubernetes/kubernetes pkg/apis/coordination/validation ValidateLease and
 * ValidateLeaseSpec; pkg/registry/coordination/lease/strategy.go), 1.32 to
 * 1.36. There is no defaulting function for coordination/v1.
 *
 * - leaseDurationSeconds, when set, greater than 0.
 * - leaseTransitions, when set, not negative.
 * - strategy and preferredHolder (ValidateCoordinatedLeaseStrategy, and
 *   "preferredHolder may only be specified if `strategy` is defined") are
 *   never checked on create here: PrepareForCreate drops both fields while
 *   CoordinatedLeaderElection is off, and the gate is off by default in
 *   every release from 1.32 to 1.36 (alpha from 1.31, beta and still off from
 *   1.33).
 *
 * The metadata rules are apimachinery's ValidateObjectMeta with a DNS
 * subdomain name, which the generic metadata check already applies (no
 * finalizer rule: see genericObjectMeta in index.ts).
 */
import type { Finding } from "../../findings/index.js";
import type { JsonObject } from "../../value/index.js";
import { asError, invalid, objectAt, optionalIntAt } from "./common.js";

export function validateLease(object: JsonObject): Finding[] {
  const spec = objectAt(object, "spec");
  if (spec === undefined) return [];
  const out: Finding[] = [];
  const duration = optionalIntAt(spec, "leaseDurationSeconds");
  if (duration !== undefined && duration <= 0)
    out.push(invalid(["spec", "leaseDurationSeconds"], duration, "must be greater than 0", asError));
  const transitions = optionalIntAt(spec, "leaseTransitions");
  if (transitions !== undefined && transitions < 0)
    out.push(invalid(["spec", "leaseTransitions"], transitions, "must be greater than or equal to 0", asError));
  return out;
}
