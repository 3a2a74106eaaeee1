import type { NotEnforced } from "./required.js";

/** Every group but core (pkg/apis/<group>/validation): see required.ts. */
export const groupsNotEnforced: readonly NotEnforced[] = [];
