/**
 * The API server's own words for resource.k8s.io/v1's DeviceRequest union (`exactly` or `firstAvailable`),
 * which pkg/apis/resource/validation validateDeviceRequest checks by hand in 1.34, 1.35 and 1.36: no
 * declarative union tag is generated for it (v1 zz_generated.validations.go validates the two members, never
 * the choice), and the hand-written errors are not covered by declarative validation, so these are what
 * `kubectl apply` prints. Both are reported at the request itself:
 * - none set (an empty `firstAvailable` is none, as Go's len check sees it): Required;
 * - both set: Invalid with a nil bad value, which Go prints as the string "null" (quoted).
 * The members' own rules (builtins/validation/resource.ts) are checked only when exactly one is set.
 */
import { invalid, required } from "../findings/index.js";
import type { Wording } from "./wording.js";

const extra = { rule: "union", severity: "error" } as const;

const NONE = "exactly one of `exactly` or `firstAvailable` is required";

export const deviceRequest: Wording = (input) => {
  const set = input.union.members.filter((m) => input.isSet(m)).length;
  if (set === 0) return [required(input.path, NONE, extra)];
  if (set > 1) return [invalid(input.path, "null", `${NONE}, but multiple fields are set`, extra)];
  return [];
};
