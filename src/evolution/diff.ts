import type { Severity } from "../findings/index.js";
import type { JsonValue } from "../value/index.js";
import { readRevision } from "./revision.js";
import type { CrdChangeFinding, CrdContext, RuleDescriptor, RuleHit } from "./rule.js";
import { walkSchemas } from "./walk.js";

export interface DiffOptions {
  /** Per-rule severities from configuration; "off" drops the rule. */
  severities?: Readonly<Record<string, Severity | "off">>;
  /** The new revision is also validated as an object (`kunion check`): the rules `refusedByServer` are left out. */
  validatedAsObject?: boolean;
}

/** The rule id for inputs that cannot be compared (not in evolution.md's table). */
export const crdInvalid = "crd-invalid";

function toFinding(rule: string, severity: Severity, c: RuleHit): CrdChangeFinding {
  const f: CrdChangeFinding = {
    type: "CrdChange",
    rule,
    severity,
    field: c.field,
    path: c.path,
    detail: c.detail,
    // The rule id is printed beside the message by every format (text, SARIF, annotations).
    message: c.field === "" ? c.detail : `${c.field}: ${c.detail}`,
  };
  if (c.version !== undefined) f.version = c.version;
  if (c.oldPath !== undefined) f.oldPath = c.oldPath;
  if (c.oldValue !== undefined) f.oldValue = c.oldValue;
  if (c.newValue !== undefined) {
    f.newValue = c.newValue;
    f.badValue = c.newValue;
  }
  return f;
}

/** The engine behind `diffCrds`: every rule of `rules` over two revisions. */
export function diff(
  oldValue: JsonValue,
  newValue: JsonValue,
  rules: readonly RuleDescriptor[],
  options: DiffOptions = {},
): CrdChangeFinding[] {
  const configured = options.severities;
  const severityOf = (id: string): Severity | "off" => {
    if (configured && Object.hasOwn(configured, id)) {
      const s = configured[id];
      if (s === "error" || s === "warning" || s === "notice" || s === "off") return s;
    }
    return rules.find((r) => r.id === id)?.severity ?? "error";
  };
  const out: CrdChangeFinding[] = [];
  const emit = (rule: string, hit: RuleHit) => {
    const severity = severityOf(rule);
    if (severity !== "off") out.push(toFinding(rule, severity, hit));
  };
  try {
    const before = readRevision(oldValue);
    const after = readRevision(newValue);
    if (typeof before === "string" || typeof after === "string") {
      if (typeof before === "string")
        emit(crdInvalid, {
          path: [],
          oldPath: [],
          field: "",
          detail: `the old document is ${before}; nothing to compare`,
        });
      if (typeof after === "string")
        emit(crdInvalid, { path: [], field: "", detail: `the new document is ${after}; nothing to compare` });
      return out;
    }
    const nodeRules = rules.filter((r) => r.node && severityOf(r.id) !== "off");
    const ctx: CrdContext = {
      old: before,
      new: after,
      severityOf,
      diffVersions(from, to) {
        if (!from.schema || !to.schema) return [];
        const a = { json: from.schema, path: from.schemaPath, node: from.node };
        const b = { json: to.schema, path: to.schemaPath, node: to.node };
        return walkSchemas(to.name, a, b, nodeRules).hits;
      },
    };
    for (const rule of rules) {
      if (severityOf(rule.id) === "off" || (options.validatedAsObject && rule.refusedByServer)) continue;
      if (rule.crd) for (const hit of rule.crd(ctx)) emit(rule.id, hit);
      if (rule.state) {
        const keyOf = (c: RuleHit) => c.key ?? `${c.field}|${c.detail}`;
        const known = new Set(rule.state(before).map(keyOf));
        for (const hit of rule.state(after)) if (!known.has(keyOf(hit))) emit(rule.id, hit);
      }
    }
    const compared = new Set<string>();
    for (const v of after.versions) {
      const prev = before.versions.find((o) => o.name === v.name);
      if (!prev?.schema || !v.schema || compared.has(v.name)) continue;
      // A version neither served nor storage has no clients and no objects of its own: nothing of it can break
      // (a newly served one is compared with its siblings by served-versions-diverge).
      if (!(prev.served || prev.storage) || !(v.served || v.storage)) continue;
      compared.add(v.name);
      const walk = walkSchemas(
        v.name,
        { json: prev.schema, path: prev.schemaPath, node: prev.node },
        { json: v.schema, path: v.schemaPath, node: v.node },
        nodeRules,
      );
      for (const { rule, hit } of walk.hits) emit(rule.id, hit);
      if (walk.truncated) {
        emit(crdInvalid, {
          path: v.schemaPath,
          version: v.name,
          field: v.name,
          detail:
            "the schema is nested too deeply (or is too large) to compare in full; the deepest parts were not compared",
        });
      }
    }
  } catch (e) {
    // A throw is a bug in kunion; the caller still gets a finding instead of a crash.
    emit(crdInvalid, {
      path: [],
      field: "",
      detail: `kunion could not compare the revisions: ${e instanceof Error ? e.message : String(e)}`,
    });
  }
  return out;
}
