import type { NotEnforced } from "./required.js";

/** core/v1 (pkg/apis/core/validation): see required.ts. */
export const coreNotEnforced: readonly NotEnforced[] = [
  { type: "LimitRangeSpec", field: "limits", source: "core ValidateLimitRange: ranges over the items, none required" },
];
