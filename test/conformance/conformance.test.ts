import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { normalize, type SchemaNode, validateUnions } from "../../src/index.js";
import { defaultMemberValue, fromSMDSchema, type Union, type UnionMember } from "../../src/schema/index.js";
import type { JsonValue } from "../../src/value/index.js";

// biome-ignore lint/suspicious/noExplicitAny: conformance data is checked by the assertions that use it
const load = (name: string): any => parse(readFileSync(new URL(name, import.meta.url), "utf8"));
type Pair = { old: JsonValue; new: JsonValue; out: JsonValue; error: string };
type Step = { op: "update" | "apply"; object: JsonValue };
type Workflow = { steps: Step[]; final?: JsonValue; error?: string };
type Validation = { union: string; old?: JsonValue | null; new: JsonValue; errors: unknown[] };

describe("structured-merge-diff v4.3.0 union cases under policy smd", () => {
  const data = load("smd-unions.yaml");
  const schemaOf = (name: string): SchemaNode => {
    const { types, findings } = fromSMDSchema(parse(data.schemas[name]));
    expect(findings).toEqual([]);
    return types[name] as SchemaNode;
  };
  const unionSchema = schemaOf("union");
  const fieldsSchema = schemaOf("unionFields");

  it.each<Pair>(data.normalize)("$id $name", ({ old, new: next, out }) => {
    const result = normalize({ object: next, oldObject: old, schema: unionSchema }, { policy: "smd" });
    expect(result.errors).toEqual([]);
    expect(result.object).toEqual(out);
  });

  it.each<Pair>(data.errors)("$id $name fails with SMD's error", ({ old, new: next, error }) => {
    const result = normalize({ object: next, oldObject: old, schema: unionSchema }, { policy: "smd" });
    expect(result.errors.map((e) => e.detail)).toEqual([error]);
    expect(result.object).toEqual(next);
    expect(result.changes).toEqual([]);
  });

  it.each<Workflow>(data.workflows)("$id $name", ({ steps, final, error }) => {
    let live: JsonValue | undefined;
    const errors: string[] = [];
    for (const step of steps) {
      const result = normalize(
        { object: step.object, oldObject: live, schema: fieldsSchema },
        { policy: "smd", mode: step.op },
      );
      errors.push(...result.errors.map((e) => e.detail));
      if (result.errors.length === 0) live = result.object;
    }
    if (error) expect(errors).toEqual([error]);
    else expect(errors).toEqual([]);
    if (final) expect(live).toEqual(final);
  });

  it("skips only M2, for a stated reason", () => {
    expect(data.skipped.map((s: { id: string }) => s.id)).toEqual(["M2"]);
    expect(data.skipped[0].why).toMatch(/managedFields/);
  });
});

describe("apimachinery union validation cases", () => {
  const data = load("apimachinery-unions.yaml");
  type Decl = {
    discriminator?: string;
    members: string[] | Record<string, string>;
    values?: Record<string, string>;
    exactlyOne: boolean;
  };
  const schemaFor = (decl: Decl): SchemaNode => {
    const entries: Array<[string, string]> = Array.isArray(decl.members)
      ? decl.members.map((m) => [m, "object"])
      : Object.entries(decl.members);
    const kinds: Record<string, SchemaNode> = {
      object: { type: "object" },
      list: { type: "array", items: { type: "string" } },
      map: { type: "object", additionalProperties: { type: "string" } },
    };
    const discriminated = decl.discriminator !== undefined;
    const members: UnionMember[] = entries.map(([field, kindOrValue]) => ({
      field,
      value: decl.values?.[field] ?? (discriminated && !decl.values ? kindOrValue : defaultMemberValue(field)),
      optional: false,
      kind: kindOrValue === "list" ? "list" : kindOrValue === "map" ? "map" : "object",
    }));
    const properties: Record<string, SchemaNode> = {};
    for (const [field, kind] of entries) properties[field] = kinds[kind] ?? { type: "object" };
    if (decl.discriminator) properties[decl.discriminator] = { type: "string" };
    const union: Union = {
      members,
      emptyValues: [],
      exactlyOne: decl.exactlyOne,
      deduce: false,
      origin: "conformance",
    };
    if (decl.discriminator) union.discriminator = decl.discriminator;
    return { type: "object", properties, unions: [union] };
  };

  it.each<Validation>(data.cases)("$suite: $name", ({ union, old, new: next, errors }) => {
    const schema = schemaFor(data.unions[union]);
    const input = { object: next, oldObject: old ?? undefined, schema };
    const found = validateUnions(input).map(({ field, type, message }) => ({ field, type, message }));
    expect(found).toEqual(errors);
  });
});
