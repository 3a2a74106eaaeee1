/** Reading a `Conversion` declaration (kunion.dev/v1alpha1) into a Conversion, with file:line findings. */
import type { Crd } from "../crd/index.js";
import { type Finding, invalid, notSupported, required, unknownField } from "../findings/index.js";
import type { FieldPath } from "../path/index.js";
import { locateFinding, type SourceDocument } from "../source/index.js";
import { clone, getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { showPath, type WriteTrie, writeTrie } from "./paths.js";
import { type CompiledRule, makeContext, RULES } from "./rules/index.js";
import { schemaHasPath } from "./schema.js";
import type { Conversion, DataPath, SpokeConversion } from "./types.js";

export const CONVERSION_API_VERSION = "kunion.dev/v1alpha1";
const rule = { rule: "conversion" } as const;

/** A declared spoke's rules, every path they write (see RuleContext.path), and those paths as a trie, built once. */
export interface DeclaredRules {
  rules: readonly CompiledRule[];
  written: readonly DataPath[];
  trie: WriteTrie;
}
const declared = new WeakMap<SpokeConversion, DeclaredRules>();

/** For the engine: a declared spoke's rules, undefined for any other spoke (its functions may write anywhere). */
export const declaredRules = (spoke: SpokeConversion): DeclaredRules | undefined => declared.get(spoke);

/** The rules applied to `work` in place: in order toward the hub, in reverse order away from it. */
export function applyRules({ rules }: DeclaredRules, toHub: boolean, work: JsonObject, source: JsonObject): JsonObject {
  if (toHub) for (const r of rules) r.toHub(work, source);
  else for (let i = rules.length - 1; i >= 0; i--) (rules[i] as CompiledRule).fromHub(work, source);
  return work;
}

/**
 * Rules applied in order toward the hub, in reverse order away from it, to a copy of the input; `self` in CEL
 * is the step's input. `written`: every path the rules write.
 */
export function declaredSpoke(rules: readonly CompiledRule[], written: readonly DataPath[]): SpokeConversion {
  const d: DeclaredRules = { rules, written, trie: writeTrie(written) };
  const spoke: SpokeConversion = {
    toHub: (obj) => applyRules(d, true, clone(obj), obj),
    fromHub: (obj) => applyRules(d, false, clone(obj), obj),
  };
  declared.set(spoke, d);
  return spoke;
}

export function readConversion(doc: SourceDocument, crd?: Crd): { conversion?: Conversion; findings: Finding[] } {
  const findings: Finding[] = [];
  const place = (f: Finding): void => {
    findings.push(locateFinding(doc, f));
  };
  const keysOf = (obj: JsonObject, at: FieldPath, allowed: readonly string[]) => {
    for (const k of Object.keys(obj)) if (!allowed.includes(k)) place(unknownField([...at, k], rule));
  };
  const root = doc.value;
  if (!isObject(root)) {
    place(invalid([], root, "a Conversion must be an object", rule));
    return { findings };
  }
  keysOf(root, [], ["apiVersion", "kind", "metadata", "spec"]);
  if (getKey(root, "apiVersion") !== CONVERSION_API_VERSION)
    place(notSupported(["apiVersion"], getKey(root, "apiVersion") ?? null, [CONVERSION_API_VERSION], rule));
  if (getKey(root, "kind") !== "Conversion")
    place(notSupported(["kind"], getKey(root, "kind") ?? null, ["Conversion"], rule));
  const spec = getKey(root, "spec");
  if (!isObject(spec)) {
    place(required(["spec"], "", rule));
    return { findings };
  }
  keysOf(spec, ["spec"], ["group", "kind", "hub", "spokes"]);
  const str = (key: string): string => {
    const v = getKey(spec, key);
    if (typeof v === "string" && v !== "") return v;
    place(
      v === undefined
        ? required(["spec", key], "", rule)
        : invalid(["spec", key], v, "must be a non-empty string", rule),
    );
    return "";
  };
  const group = str("group");
  const kind = str("kind");
  const hub = str("hub");
  const versions = crd?.versions.map((v) => v.name);
  if (crd !== undefined) {
    if (group !== "" && group !== crd.group) place(notSupported(["spec", "group"], group, [crd.group], rule));
    if (kind !== "" && kind !== crd.kind) place(notSupported(["spec", "kind"], kind, [crd.kind], rule));
  }
  const checkVersion = (v: string, at: FieldPath): boolean => {
    if (versions === undefined || versions.includes(v)) return true;
    place(notSupported(at, v, versions, { rule: "conversion" }));
    return false;
  };
  if (hub !== "") checkVersion(hub, ["spec", "hub"]);
  // spokes: a map (version → rules) or a list of {version, rules}
  const entries: Array<{ version: string; rules: JsonValue | undefined; at: FieldPath; versionAt: FieldPath }> = [];
  const rawSpokes = getKey(spec, "spokes");
  if (isObject(rawSpokes)) {
    for (const v of Object.keys(rawSpokes))
      entries.push({ version: v, rules: rawSpokes[v], at: ["spec", "spokes", v], versionAt: ["spec", "spokes", v] });
  } else if (Array.isArray(rawSpokes)) {
    rawSpokes.forEach((item, i) => {
      const at: FieldPath = ["spec", "spokes", i];
      if (!isObject(item)) {
        place(invalid(at, item, "must be {version, rules}", rule));
        return;
      }
      keysOf(item, at, ["version", "rules"]);
      const v = getKey(item, "version");
      if (typeof v !== "string") {
        place(required([...at, "version"], "", rule));
        return;
      }
      entries.push({
        version: v,
        rules: getKey(item, "rules") ?? [],
        at: [...at, "rules"],
        versionAt: [...at, "version"],
      });
    });
  } else if (rawSpokes !== undefined)
    place(invalid(["spec", "spokes"], rawSpokes, "must be a map of version to rules", rule));
  const spokes = new Map<string, SpokeConversion>();
  const seen = new Set<string>();
  for (const e of entries) {
    if (e.version === hub) {
      place(invalid(e.versionAt, e.version, "the hub cannot also be a spoke (a cycle)", rule));
      continue;
    }
    if (seen.has(e.version)) {
      place(invalid(e.versionAt, e.version, "this version is already a spoke", rule));
      continue;
    }
    seen.add(e.version);
    const versionKnown = checkVersion(e.version, e.versionAt);
    if (!Array.isArray(e.rules)) {
      place(invalid(e.at, e.rules ?? null, "must be a list of rules", rule));
      continue;
    }
    const compiled: CompiledRule[] = [];
    const written: DataPath[] = [];
    e.rules.forEach((raw, i) => {
      const at: FieldPath = [...e.at, i];
      if (!isObject(raw) || Object.keys(raw).length !== 1) {
        place(invalid(at, raw, `a rule is an object with one key, one of: ${[...RULES.keys()].join(", ")}`, rule));
        return;
      }
      const name = Object.keys(raw)[0] as string;
      const ruleKind = RULES.get(name);
      if (ruleKind === undefined) {
        place(notSupported([...at, name], name, [...RULES.keys()], rule));
        return;
      }
      const args = raw[name];
      const argsAt: FieldPath = [...at, name];
      if (!isObject(args)) {
        place(invalid(argsAt, args ?? null, `must be an object with ${ruleKind.required.join(", ")}`, rule));
        return;
      }
      keysOf(args, argsAt, [...ruleKind.required, ...ruleKind.optional]);
      let ok = true;
      for (const k of ruleKind.required)
        if (!Object.hasOwn(args, k)) {
          place(required([...argsAt, k], "", rule));
          ok = false;
        }
      const ctx = makeContext(args, (key, detail, badValue) => {
        if (key !== undefined && detail === "Required value" && !Object.hasOwn(args, key)) return;
        ok = false;
        const p = key === undefined ? argsAt : [...argsAt, key];
        place(invalid(p, badValue, detail, rule));
      });
      const c = ruleKind.compile(ctx);
      if (crd !== undefined && versionKnown)
        for (const np of ctx.paths) {
          const sides =
            np.side === "both" || np.side === "either" ? [e.version, hub] : [np.side === "hub" ? hub : e.version];
          const missing = sides.filter((v) => {
            const schema = crd.versions.find((x) => x.name === v)?.openAPIV3Schema;
            return schema !== undefined && !schemaHasPath(schema, np.path);
          });
          if (np.side === "either" && missing.length < sides.length) continue;
          for (const v of missing)
            place(invalid([...argsAt, np.key], showPath(np.path), `no such field in the schema of version ${v}`, rule));
        }
      if (c !== undefined && ok) {
        compiled.push(c);
        for (const np of ctx.paths) written.push(np.path);
      }
    });
    spokes.set(e.version, declaredSpoke(compiled, written));
  }
  if (findings.some((f) => f.severity === "error")) return { findings };
  return { conversion: { group, kind, hub, spokes, ...(crd === undefined ? {} : { crd }) }, findings };
}
