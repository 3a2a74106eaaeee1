import { type StructuralViolation, structuralViolations } from "../../crd/index.js";
import { formatPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import type { RevisionVersion } from "../revision.js";
import { fieldOf, type RuleDescriptor, type RuleHit } from "../rule.js";

/**
 * apiextensions-apiserver's structural-schema rules (pkg/apiserver/schema,
 * validation.go and complete.go), as crd/schema-validation.ts checks them:
 * every specified field has a type, arrays have items, allOf/anyOf/oneOf/not
 * only restrict values (no type, additionalProperties, default, title,
 * description, nullable or x-kubernetes-* in them) and the root's name only
 * fields the schema itself specifies, and metadata at the root restricts only
 * name and generateName. Each hit is placed on the node whose rule it breaks.
 */
export const schemaNotStructural: RuleDescriptor = {
  id: "schema-not-structural",
  refusedByServer: true,
  severity: "error",
  description:
    "a schema the API server rejects as non-structural (missing type, junctors that define types, metadata beyond name/generateName)",
  state(rev) {
    const out: RuleHit[] = [];
    const v1 = getKey(rev.doc, "apiVersion") === "apiextensions.k8s.io/v1";
    for (const v of rev.versions) {
      if (v.schema) out.push(...structuralProblems({ ...v, schema: v.schema }));
      else if (v1) {
        out.push({
          path: v.path,
          version: v.name,
          field: v.name,
          detail: "no schema.openAPIV3Schema; apiextensions.k8s.io/v1 requires one for every version",
        });
      }
    }
    return out.map((c) => ({ ...c, key: `${c.field}|${c.detail}` }));
  },
};

function structuralProblems(version: RevisionVersion & { schema: JsonObject }): RuleHit[] {
  return structuralViolations(version.schema, version.schemaPath).map((v) => ({
    path: [...version.schemaPath, ...v.node, ...v.where],
    version: version.name,
    field: fieldOf(version.name, v.data),
    data: v.data,
    detail: `${formatPath(v.where)}: ${detailOf(v)}`,
  }));
}

/** The server's detail, told from the node: what metadata adds, and a missing field from the junctor naming it. */
function detailOf(v: StructuralViolation): string {
  if (v.incomplete) return "must be specified in the structural part of the schema too";
  if (v.implicit) return `${v.error.detail} (${v.implicit.join(", ")})`;
  return v.error.detail;
}
