import type { JsonValue } from "../value/index.js";

/**
 * How a member's emptiness is judged: an empty list or map member counts as
 * unset in apimachinery's union validation (and policy `kep`); `zero` members
 * (Go non-pointer scalars such as `EnvVar.value`) are unset at their zero value.
 */
export type MemberKind = "scalar" | "object" | "list" | "map" | "zero";

export interface UnionMember {
  /** JSON field name. */
  field: string;
  /** The discriminator value that selects this member. */
  value: string;
  /** The discriminator may select this member while it is empty (KEP 002 `+unionMember,optional`). */
  optional: boolean;
  kind: MemberKind;
}

/**
 * One union in one object schema (unions.md §1). Every declaration form
 * (OpenAPI extension, SMD schema, Go markers, recognised CEL/oneOf, the
 * built-in registry) produces this.
 */
export interface Union {
  /** JSON name of the discriminator field, if any. */
  discriminator?: string;
  members: UnionMember[];
  /** Discriminator values that select no member (`Recreate`, `RuntimeDefault`). */
  emptyValues: string[];
  /** Exactly one (true) or at most one (false). */
  exactlyOne: boolean;
  /** SMD `deduceInvalidDiscriminator`: write the discriminator from the single set member. */
  deduce: boolean;
  /** Where it was declared, for notes and errors (`x-kubernetes-unions`, `+union Foo`, `built-in DeploymentStrategy`). */
  origin: string;
  /** The API server's own messages for this built-in union (see `unions/wording.ts`). */
  wording?: string;
  /**
   * The schema checks this union itself (it was recognised from CEL rules or a
   * `oneOf`): full validation leaves it to the schema, so a cause is reported
   * once, in the CRD author's words.
   */
  enforcedBySchema?: boolean;
}

/**
 * The part of a structural schema that unions need: where objects, lists and
 * maps are, how list items match (`x-kubernetes-list-map-keys`), and the unions
 * declared on each object. Property records have no prototype.
 */
export interface SchemaNode {
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  properties?: Record<string, SchemaNode>;
  /** Schema of map values (`additionalProperties` with a schema). */
  additionalProperties?: SchemaNode;
  items?: SchemaNode;
  listMapKeys?: string[];
  required?: string[];
  enum?: JsonValue[];
  unions?: Union[];
}

/** A record without a prototype, so `__proto__` and `constructor` are plain keys. */
export function emptyRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** The kind of a member from its schema: empty lists and maps count as unset. */
export function memberKindOf(node: SchemaNode | undefined): MemberKind {
  if (!node) return "scalar";
  if (node.type === "array") return "list";
  if (node.type === "object" && !node.properties && node.additionalProperties) return "map";
  if (node.type === "object" || node.properties) return "object";
  return "scalar";
}

/** The discriminator value a member gets by default: its Go field name (KEP 002). */
export function defaultMemberValue(field: string): string {
  return field.charAt(0).toUpperCase() + field.slice(1);
}

/** A property's schema, own properties only (a schema may name a field `__proto__`). */
export function propertyOf(node: SchemaNode | undefined, name: string): SchemaNode | undefined {
  const props = node?.properties;
  return props && Object.hasOwn(props, name) ? props[name] : undefined;
}
