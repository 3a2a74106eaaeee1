import { describe, expect, it } from "vitest";
import type { JsonObject } from "../value/index.js";
import { brief, crd, diff, int, list, obj, rules, str, v1 } from "./test-helpers.js";

const at = (...props: string[]) => [
  "spec",
  "versions",
  0,
  "schema",
  "openAPIV3Schema",
  "properties",
  { key: "spec" },
  ...props.flatMap((p) => ["properties", { key: p }]),
];

describe("field-removed", () => {
  it("reports a removed field once, on its nearest surviving parent, not again for its children", () => {
    const old = v1(
      obj({ replicas: int(), template: obj({ image: str({ enum: ["a"] }), port: int({ default: 80 }) }) }),
    );
    const found = diff(old, v1(obj({ replicas: int() })));
    expect(brief(found)).toEqual(["field-removed v1 spec.template"]);
    expect(found[0]).toMatchObject({ severity: "error", version: "v1", path: at(), oldPath: at("template") });
    expect(found[0]?.message).toMatch(/^v1 spec\.template: removed; /);
  });

  it("does not fire for an added field, nor under a parent that keeps unknown fields", () => {
    expect(diff(v1(obj({ a: int() })), v1(obj({ a: int(), b: str() })))).toEqual([]);
    const preserving = v1(obj({}, { "x-kubernetes-preserve-unknown-fields": true }));
    expect(rules(diff(v1(obj({ a: int() }, { "x-kubernetes-preserve-unknown-fields": true })), preserving))).toEqual(
      [],
    );
  });
});

describe("type-changed", () => {
  it("reports integer → string with the readable message", () => {
    const found = diff(v1(obj({ replicas: int() })), v1(obj({ replicas: str() })));
    expect(found.map((f) => f.message)).toEqual([
      "v1 spec.replicas: integer became string; stored objects no longer validate",
    ]);
    // On the changed keyword (`type: string`), the line a reviewer sees changed.
    expect(found[0]).toMatchObject({
      path: [...at("replicas"), "type"],
      oldValue: "integer",
      newValue: "string",
      type: "CrdChange",
    });
  });

  it("reports int-or-string → string", () => {
    const ios = { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }] };
    expect(brief(diff(v1(obj({ port: ios })), v1(obj({ port: str() }))))).toEqual(["type-changed v1 spec.port"]);
  });

  it("reports a map turned into a list once (not its values, not as pruning)", () => {
    const asMap = v1(obj({ env: { type: "object", additionalProperties: str() } }));
    const asList = v1(
      obj({
        env: list(obj({ name: str(), value: str() }), {
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
        }),
      }),
    );
    expect(brief(diff(asMap, asList))).toEqual(["type-changed v1 spec.env"]);
    expect(diff(asMap, asList)[0]?.detail).toBe("object became array; stored objects no longer validate");
  });

  it("does not fire when only the format changes", () => {
    expect(rules(diff(v1(obj({ at: str() })), v1(obj({ at: str({ format: "date-time" }) }))))).toEqual([
      "format-changed",
    ]);
  });
});

describe("required-added", () => {
  // Argo CD 0.12 → 1.0: Application.spec gained required fields; existing Applications could not even be deleted.
  const app = (spec: JsonObject) => v1(spec);
  it("fires for a new required field under an existing parent", () => {
    const found = diff(
      app(obj({ source: obj({ repoURL: str() }) })),
      app(obj({ source: obj({ repoURL: str() }), project: str() }, { required: ["project"] })),
    );
    expect(brief(found)).toEqual(["required-added v1 spec.project"]);
    // On the new entry of `required`, the line that changed.
    expect(found[0]?.path).toEqual([...at(), "required", 0]);
  });

  it("fires when an existing optional field becomes required", () => {
    const old = app(obj({ source: obj({ repoURL: str(), path: str() }) }));
    const next = app(obj({ source: obj({ repoURL: str(), path: str() }, { required: ["path"] }) }));
    expect(brief(diff(old, next))).toEqual(["required-added v1 spec.source.path"]);
  });

  it("does not fire under a new optional parent", () => {
    const old = app(obj({ source: obj({ repoURL: str() }) }));
    const next = app(
      obj({ source: obj({ repoURL: str() }), syncPolicy: obj({ automated: obj() }, { required: ["automated"] }) }),
    );
    expect(diff(old, next)).toEqual([]);
  });

  it("does not fire for a field with a default", () => {
    const old = app(obj({ source: obj({ repoURL: str() }) }));
    const next = app(
      obj({ source: obj({ repoURL: str() }), project: str({ default: "default" }) }, { required: ["project"] }),
    );
    expect(rules(diff(old, next))).toEqual([]);
  });

  it("fires for a new required parent, once, on the parent", () => {
    const old = app(obj({ source: obj({ repoURL: str() }) }));
    const next = app(
      obj(
        { source: obj({ repoURL: str() }), destination: obj({ server: str() }, { required: ["server"] }) },
        { required: ["destination"] },
      ),
    );
    expect(brief(diff(old, next))).toEqual(["required-added v1 spec.destination"]);
  });
});

describe("enums", () => {
  it("values removed, or an enum added; enum-extended: values added", () => {
    const abc = v1(obj({ mode: str({ enum: ["A", "B", "C"] }) }));
    const ab = v1(obj({ mode: str({ enum: ["A", "B"] }) }));
    const narrowed = diff(abc, ab);
    expect(brief(narrowed)).toEqual(["enum-restricted v1 spec.mode"]);
    expect(narrowed[0]?.detail).toBe('enum values removed: "C"; stored objects using them no longer validate');
    expect(rules(diff(v1(obj({ mode: str() })), ab))).toEqual(["enum-restricted"]);
    const widened = diff(ab, abc);
    expect(widened.map((f) => `${f.rule} ${f.severity}`)).toEqual(["enum-extended notice"]);
  });

  it("an unchanged enum in another order reports nothing", () => {
    expect(diff(v1(obj({ mode: str({ enum: ["A", "B"] }) })), v1(obj({ mode: str({ enum: ["B", "A"] }) })))).toEqual(
      [],
    );
  });
});

describe("bounds-tightened", () => {
  it("fires for each tightened bound", () => {
    const old = v1(obj({ name: str({ maxLength: 64 }), count: int({ multipleOf: 2 }), tags: list(str()) }));
    const next = v1(
      obj({
        name: str({ maxLength: 32, minLength: 1 }),
        count: int({ multipleOf: 4, maximum: 10 }),
        tags: list(str(), { maxItems: 5 }),
      }),
    );
    expect(diff(old, next).map((f) => `${f.field}: ${f.detail.split(";")[0]}`)).toEqual([
      "v1 spec.name: maxLength lowered from 64 to 32",
      "v1 spec.name: minLength added: 1",
      "v1 spec.count: maximum added: 10",
      "v1 spec.count: multipleOf changed from 2 to 4",
      "v1 spec.tags: maxItems added: 5",
    ]);
  });

  it("does not fire for loosened bounds", () => {
    const old = v1(
      obj({
        name: str({ maxLength: 32, minLength: 2 }),
        count: int({ multipleOf: 4, exclusiveMaximum: true, maximum: 10 }),
      }),
    );
    const next = v1(obj({ name: str({ maxLength: 64, minLength: 1 }), count: int({ multipleOf: 2, maximum: 10 }) }));
    expect(diff(old, next)).toEqual([]);
    expect(rules(diff(next, old))).toEqual([
      "bounds-tightened",
      "bounds-tightened",
      "bounds-tightened",
      "bounds-tightened",
    ]);
  });
});

describe("pattern, format, nullable, default", () => {
  it("added or changed, not removed", () => {
    expect(rules(diff(v1(obj({ n: str() })), v1(obj({ n: str({ pattern: "^[a-z]+$" }) }))))).toEqual([
      "pattern-changed",
    ]);
    expect(rules(diff(v1(obj({ n: str({ pattern: "^a" }) })), v1(obj({ n: str({ pattern: "^b" }) }))))).toEqual([
      "pattern-changed",
    ]);
    expect(diff(v1(obj({ n: str({ pattern: "^a" }) })), v1(obj({ n: str() })))).toEqual([]);
  });

  it("a warning when added or changed, nothing when removed", () => {
    const found = diff(v1(obj({ n: str({ format: "ipv4" }) })), v1(obj({ n: str({ format: "ipv6" }) })));
    expect(found.map((f) => `${f.rule} ${f.severity}`)).toEqual(["format-changed warning"]);
    expect(diff(v1(obj({ n: str({ format: "ipv4" }) })), v1(obj({ n: str() })))).toEqual([]);
  });

  it("true → absent; not absent → true", () => {
    expect(rules(diff(v1(obj({ n: str({ nullable: true }) })), v1(obj({ n: str() }))))).toEqual(["nullable-removed"]);
    expect(diff(v1(obj({ n: str() })), v1(obj({ n: str({ nullable: true }) })))).toEqual([]);
  });

  it("added, removed or changed; an equal default in another key order is no change", () => {
    expect(rules(diff(v1(obj({ n: int({ default: 1 }) })), v1(obj({ n: int({ default: 2 }) }))))).toEqual([
      "default-changed",
    ]);
    expect(rules(diff(v1(obj({ n: int() })), v1(obj({ n: int({ default: 2 }) }))))).toEqual(["default-changed"]);
    const a = v1(obj({ o: obj({ x: int(), y: int() }, { default: { x: 1, y: 2 } }) }));
    const b = v1(obj({ o: obj({ x: int(), y: int() }, { default: { y: 2, x: 1 } }) }));
    expect(diff(a, b)).toEqual([]);
  });
});

describe("CEL rules", () => {
  const withRules = (...r: JsonObject[]) => v1(obj({ min: int(), max: int() }, { "x-kubernetes-validations": r }));
  it("a new CEL rule, pointing at the rule", () => {
    const found = diff(withRules(), withRules({ rule: "self.min <= self.max", message: "min above max" }));
    expect(brief(found)).toEqual(["validation-rule-added v1 spec"]);
    expect(found[0]?.path).toEqual([...at(), "x-kubernetes-validations", 0]);
  });

  it("the message or the rule text changed", () => {
    const old = withRules({ rule: "self.min <= self.max", message: "a" });
    expect(rules(diff(old, withRules({ rule: "self.min <= self.max", message: "b" })))).toEqual([
      "validation-rule-changed",
    ]);
    expect(rules(diff(old, withRules({ rule: "self.min < self.max", message: "a" })))).toEqual([
      "validation-rule-changed",
    ]);
  });

  it("neither fires for a rule re-wrapped or removed", () => {
    const old = withRules({ rule: "self.min <= self.max" });
    expect(diff(old, withRules({ rule: "self.min<=self.max " }))).toEqual([]);
    expect(diff(old, withRules())).toEqual([]);
  });
});

describe("merge strategy and pruning", () => {
  it("atomic → map; not an explicit atomic where it was implied", () => {
    const items = obj({ name: str() }, { required: ["name"] });
    const atomic = v1(obj({ ports: list(items) }));
    const asMap = v1(
      obj({ ports: list(items, { "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"] }) }),
    );
    expect(diff(atomic, asMap).map((f) => f.message)).toEqual([
      "v1 spec.ports: x-kubernetes-list-type atomic → map, x-kubernetes-list-map-keys unset → name; server-side apply merges it differently and field ownership changes",
    ]);
    expect(diff(atomic, v1(obj({ ports: list(items, { "x-kubernetes-list-type": "atomic" }) })))).toEqual([]);
  });

  it("preserve-unknown-fields or a map's additionalProperties removed; not when added", () => {
    const open = v1(obj({ config: { type: "object", "x-kubernetes-preserve-unknown-fields": true } }));
    const closed = v1(obj({ config: obj({ a: str() }) }));
    expect(rules(diff(open, closed))).toEqual(["unknown-fields-pruned"]);
    expect(diff(closed, open)).toEqual([]);
    const labels = v1(obj({ labels: { type: "object", additionalProperties: str() } }));
    expect(rules(diff(labels, v1(obj({ labels: obj({ app: str() }) }))))).toEqual(["unknown-fields-pruned"]);
  });

  it("description-changed is off by default and can be turned on", () => {
    const old = v1(obj({ n: int({ description: "How many." }) }));
    const next = v1(obj({ n: int({ description: "How many replicas." }) }));
    expect(diff(old, next)).toEqual([]);
    const on = diff(old, next, { severities: { "description-changed": "notice" } });
    expect(on.map((f) => `${f.rule} ${f.severity} ${f.field}`)).toEqual(["description-changed notice v1 spec.n"]);
  });
});

describe("options", () => {
  it("a configured severity replaces the default, and off drops the rule", () => {
    const old = v1(obj({ a: int(), b: int() }));
    const next = v1(obj({ a: str() }));
    expect(
      diff(old, next, { severities: { "field-removed": "warning" } }).map((f) => `${f.rule} ${f.severity}`),
    ).toEqual(["field-removed warning", "type-changed error"]);
    expect(rules(diff(old, next, { severities: { "type-changed": "off" } }))).toEqual(["field-removed"]);
  });

  it("ignores configuration keys that are not rules, __proto__ included", () => {
    const severities = JSON.parse('{"__proto__": "off", "constructor": "off"}');
    expect(rules(diff(v1(obj({ a: int() })), v1(obj()), { severities }))).toEqual(["field-removed"]);
  });
});

describe("served-versions-diverge", () => {
  const spec = obj({ replicas: int() });
  it("fires for a new served version whose schema diverges without a webhook", () => {
    const next = crd([
      { name: "v1", spec },
      { name: "v2", spec: obj({ replicas: int() }, { required: ["replicas"] }) },
    ]);
    const found = diff(crd([{ name: "v1", spec }]), next).filter((f) => f.rule === "served-versions-diverge");
    expect(found.map((f) => f.message)).toEqual([
      "v2 spec.replicas: v1 → v2 required-added: `replicas` became required; existing objects without it are rejected on their next update",
    ]);
  });

  it("reports a type difference once per pair, and two new rules as two", () => {
    const rules2 = { "x-kubernetes-validations": [{ rule: "self.replicas > 0" }, { rule: "self.replicas < 9" }] };
    const next = crd([
      { name: "v1", spec },
      { name: "v2", spec: obj({ replicas: str(), n: int() }, rules2) },
    ]);
    const found = diff(crd([{ name: "v1", spec }]), next).filter((f) => f.rule === "served-versions-diverge");
    expect(found.map((f) => f.detail.split(":")[0])).toEqual([
      "v1 → v2 validation-rule-added",
      "v1 → v2 validation-rule-added",
      "v1 → v2 type-changed",
      "v2 → v1 field-removed",
    ]);
  });

  it("reports only what a changed pair adds to the divergences the old revision served", () => {
    const required = { required: ["replicas"] };
    const before = crd([
      { name: "v1", spec },
      { name: "v2", spec: obj({ replicas: int() }, required) },
    ]);
    const after = crd([
      { name: "v1", spec },
      { name: "v2", spec: obj({ replicas: int(), n: int() }, required) },
    ]);
    const found = diff(before, after).filter((f) => f.rule === "served-versions-diverge");
    expect(found.map((f) => f.detail.split(":")[0])).toEqual(["v2 → v1 field-removed"]);
  });

  it("does not fire for a divergence the old revision already served, nor with a webhook", () => {
    const both = crd([
      { name: "v1", spec },
      { name: "v2", spec: obj({ replicas: int() }, { required: ["replicas"] }) },
    ]);
    expect(diff(both, both)).toEqual([]);
    const conversion = {
      strategy: "Webhook",
      webhook: { clientConfig: { url: "https://c.example.com" }, conversionReviewVersions: ["v1"] },
    };
    const hooked = crd(
      [
        { name: "v1", spec },
        { name: "v2", spec: obj({ replicas: str() }) },
      ],
      { conversion },
    );
    expect(rules(diff(v1(spec, { conversion }), hooked))).toEqual([]);
  });
});

describe("where a finding is placed", () => {
  const spec = (size: JsonObject) => v1(obj({ maxSize: size }));
  it("is the changed keyword of the node, not the node", () => {
    const found = diff(spec(int()), spec({ ...int(), minimum: 0, maximum: 9 }));
    expect(found.map((f) => [f.detail.split(";")[0], f.path.at(-1)])).toEqual([
      ["maximum added: 9", "maximum"],
      ["minimum added: 0", "minimum"],
    ]);
    expect(found.every((f) => f.oldPath === undefined)).toBe(true);
  });

  it("is the node for a keyword the new revision lost, with the keyword's place in the old one", () => {
    const [f] = diff(spec({ ...int(), default: 3 }), spec(int()));
    expect(f?.rule).toBe("default-changed");
    expect(f?.path).toEqual(at("maxSize"));
    expect(f?.oldPath).toEqual([...at("maxSize"), "default"]);
  });
});
