import type { FieldPath } from "../path/index.js";
import type { Union, UnionMember } from "../schema/index.js";
import type { JsonObject } from "../value/index.js";

/**
 * A normalization policy (unions.md §3) is a descriptor: how one union at one
 * node is normalized on update and on apply. It mutates only `out` through the
 * editor, so every change is recorded.
 */
export interface UnionPolicy {
  name: "kep" | "smd";
  /** `out` starts as the new object; `old` is the stored one (absent on create). */
  update(union: Union, at: UpdateSite, edit: UnionEditor): void;
  /** `out` starts as live merged with the applied config; `applied` is the config alone. */
  apply(union: Union, at: ApplySite, edit: UnionEditor): void;
}

export interface UpdateSite {
  out: JsonObject;
  old: JsonObject | undefined;
  path: FieldPath;
}

export interface ApplySite {
  out: JsonObject;
  applied: JsonObject | undefined;
  path: FieldPath;
}

export interface UnionEditor {
  /** Remove a member's key (even when its value is null). */
  clear(member: UnionMember): void;
  setDiscriminator(value: string): void;
  /** Copy a member back from the old object (update only). */
  restore(member: UnionMember): void;
  /** Why the union was left alone. */
  note(message: string): void;
  /** Policy `smd` only: the error SMD returned; the whole normalization fails. */
  fail(message: string): void;
}
