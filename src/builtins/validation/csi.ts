/**
 * storage.k8s.io/v1 CSIDrivers as the API server validates them on create
 * (kubernetes/kubernetes pkg/apis/storage/validation ValidateCSIDriver and
 * validateCSIDriverSpec), after storage/v1 SetDefaults_CSIDriver.
 *
 * - The name: ValidateCSIDriver hands ValidateObjectMeta the storage
 *   package's ValidateCSIDriverName, which is NameIsDNSSubdomain (not core's
 *   63-byte driver rule), so the generic metadata check already says it.
 * - attachRequired, podInfoOnMount, storageCapacity, requiresRepublish and
 *   seLinuxMount (validateAttachRequired, validatePodInfoOnMount,
 *   validateStorageCapacity, validateSELinuxMount) are Required when nil,
 *   but SetDefaults_CSIDriver sets every one of them first (seLinuxMount
 *   under SELinuxMountReadWriteOncePod, on by default since 1.28), as it sets
 *   fsGroupPolicy and an empty volumeLifecycleModes: on create they never fire.
 * - validateFSGroupPolicy: a set policy (`""` included) is one of the sorted
 *   supported values.
 * - validateVolumeLifecycleModes: each mode Persistent or Ephemeral, reported
 *   at the list, not the item.
 * - validateTokenRequests: an audience said twice is a Duplicate (and its
 *   expiration not checked); expirationSeconds between 10 minutes and 2^32.
 * - validateNodeAllocatableUpdatePeriodSeconds: at least 10 seconds, from
 *   1.35, where MutableCSINodeAllocatableCount is on by default; before, the
 *   strategy drops the field (1.33, 1.34) or the field does not exist.
 */
import type { Finding } from "../../findings/index.js";
import { child, type FieldPath } from "../../path/index.js";
import type { JsonObject } from "../../value/index.js";
import {
  asError,
  duplicate,
  invalid,
  listAt,
  notSupported,
  objectAt,
  objectItems,
  optionalIntAt,
  stringAt,
} from "./common.js";
import { setOneOf } from "./security.js";
import { validateTokenExpiration } from "./volumes.js";

const fsGroupPolicies = ["File", "None", "ReadWriteOnceWithFSType"] as const;
const lifecycleModes = ["Persistent", "Ephemeral"] as const;

/** validateTokenRequests. */
function validateTokenRequests(spec: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const audiences = new Set<string>();
  for (const [i, request] of objectItems(spec, "tokenRequests")) {
    const at = child(path, i);
    const audience = stringAt(request, "audience");
    if (audience !== undefined) {
      if (audiences.has(audience)) {
        out.push(duplicate(child(at, "audience"), audience, asError));
        continue;
      }
      audiences.add(audience);
    }
    out.push(...validateTokenExpiration(request, child(at, "expirationSeconds")));
  }
  return out;
}

export function validateCSIDriver(object: JsonObject, minor: number): Finding[] {
  const spec = objectAt(object, "spec");
  if (spec === undefined) return [];
  const path: FieldPath = ["spec"];
  const out = setOneOf(spec, "fsGroupPolicy", path, fsGroupPolicies);
  out.push(...validateTokenRequests(spec, child(path, "tokenRequests")));
  for (const mode of listAt(spec, "volumeLifecycleModes"))
    if (typeof mode === "string" && !(lifecycleModes as readonly string[]).includes(mode))
      out.push(notSupported(child(path, "volumeLifecycleModes"), mode, lifecycleModes, asError));
  const period = optionalIntAt(spec, "nodeAllocatableUpdatePeriodSeconds");
  if (minor >= 35 && period !== undefined && period < 10)
    out.push(
      invalid(
        child(path, "nodeAllocatableUpdatePeriodSeconds"),
        period,
        "must be greater than or equal to 10 seconds",
        asError,
      ),
    );
  return out;
}
