import { type FieldPath, formatPath, schemaProperty } from "../../path/index.js";
import { propertyOf, type SchemaNode, type Union } from "../../schema/index.js";
import type { Revision, RevisionVersion } from "../revision.js";
import { fieldOf, hitAt, type NodePair, type RuleDescriptor, type RuleHit } from "../rule.js";
import { maxDepth } from "../walk.js";

const fields = (u: Union) => u.members.map((m) => `\`${m.field}\``).join(", ");

/**
 * Unions of one node across revisions: the same discriminator is the same
 * union; otherwise the union sharing most member fields.
 */
function pairUnions(before: readonly Union[], after: readonly Union[]) {
  const matched: Array<[Union, Union]> = [];
  const olds = [...before];
  const news = [...after];
  for (const o of [...olds]) {
    const k = o.discriminator === undefined ? -1 : news.findIndex((n) => n.discriminator === o.discriminator);
    if (k < 0) continue;
    matched.push([o, news.splice(k, 1)[0]!]);
    olds.splice(olds.indexOf(o), 1);
  }
  for (const o of [...olds]) {
    const shared = (n: Union) => n.members.filter((m) => o.members.some((x) => x.field === m.field)).length;
    let best = -1;
    news.forEach((n, k) => {
      if (shared(n) > 0 && (best < 0 || shared(n) > shared(news[best]!))) best = k;
    });
    if (best < 0) continue;
    matched.push([o, news.splice(best, 1)[0]!]);
    olds.splice(olds.indexOf(o), 1);
  }
  return { matched, gone: olds, fresh: news };
}

const has = (node: SchemaNode | undefined, field: string) => propertyOf(node, field) !== undefined;

function unionChanges(pair: NodePair): { changed: RuleHit[]; added: RuleHit[] } {
  const changed: RuleHit[] = [];
  const added: RuleHit[] = [];
  const { oldNode, newNode } = pair;
  if (!oldNode || !newNode) return { changed, added };
  const { matched, gone, fresh } = pairUnions(oldNode.unions ?? [], newNode.unions ?? []);
  for (const [o, n] of matched) {
    // A discriminator field that is gone is reported once, by field-removed.
    if (o.discriminator !== undefined && n.discriminator !== o.discriminator && has(newNode, o.discriminator)) {
      const what = n.discriminator === undefined ? "removed" : `renamed to \`${n.discriminator}\``;
      changed.push(
        hitAt(
          pair,
          `the discriminator \`${o.discriminator}\` of the union of ${fields(o)} was ${what}; clients that set it no longer select a member`,
          { oldValue: o.discriminator, newValue: n.discriminator },
        ),
      );
    }
    for (const om of o.members) {
      const nm = n.members.find((m) => m.field === om.field);
      // A member whose field is gone is reported once, by field-removed.
      if (!nm && has(newNode, om.field)) {
        changed.push(
          hitAt(
            pair,
            `\`${om.field}\` left the union of ${fields(o)}; objects may now set it together with another member`,
            { oldValue: om.field },
          ),
        );
      } else if (nm && o.discriminator !== undefined && n.discriminator === o.discriminator && nm.value !== om.value) {
        changed.push(
          hitAt(
            pair,
            `the discriminator value selecting \`${om.field}\` changed from "${om.value}" to "${nm.value}"; stored objects select another member`,
            { oldValue: om.value, newValue: nm.value },
          ),
        );
      }
    }
    for (const nm of n.members) {
      if (o.members.some((m) => m.field === nm.field)) continue;
      if (has(oldNode, nm.field)) {
        changed.push(
          hitAt(
            pair,
            `the existing field \`${nm.field}\` joined the union of ${fields(o)}; stored objects may set it together with another member`,
            { newValue: nm.field },
          ),
        );
      } else {
        added.push(
          hitAt(
            pair,
            `\`${nm.field}\` added to the union of ${fields(n)}; clients that do not know it see none of the members set`,
            { newValue: nm.field },
          ),
        );
      }
    }
  }
  for (const o of gone) {
    if (o.discriminator !== undefined && has(newNode, o.discriminator)) {
      changed.push(
        hitAt(
          pair,
          `the union of ${fields(o)} on discriminator \`${o.discriminator}\` was removed; clients that rely on it break`,
          { oldValue: o.discriminator },
        ),
      );
    }
  }
  for (const n of fresh) {
    // A union the schema itself enforces (CEL, oneOf) is reported as the validation added.
    const existing = n.members.filter((m) => has(oldNode, m.field));
    if (existing.length >= 2 && !n.enforcedBySchema) {
      changed.push(
        hitAt(
          pair,
          `a union laid over the existing fields ${existing.map((m) => `\`${m.field}\``).join(", ")}; stored objects may set several of them`,
          { newValue: n.members.map((m) => m.field) },
        ),
      );
    }
  }
  return { changed, added };
}

export const unionChanged: RuleDescriptor = {
  id: "union-changed",
  severity: "error",
  description:
    "a union's discriminator removed or renamed, a member's discriminator value changed, a member removed, or a union laid over existing fields",
  node: (pair) => unionChanges(pair).changed,
};

export const unionMemberAdded: RuleDescriptor = {
  id: "union-member-added",
  severity: "notice",
  description: "a member added to a union (clients that do not know it rely on the discriminator)",
  node: (pair) => unionChanges(pair).added,
};

interface Located {
  union: Union;
  data: FieldPath;
  path: FieldPath;
}

/** Every union of a version's schema, with its data path and its place in the document. */
function unionsOf(version: RevisionVersion): Located[] {
  const out: Located[] = [];
  if (!version.node) return out;
  const seen = new Set<SchemaNode>();
  const stack: Array<[SchemaNode, FieldPath, FieldPath, number]> = [[version.node, [], version.schemaPath, 0]];
  while (stack.length > 0) {
    const [node, data, path, depth] = stack.pop()!;
    if (seen.has(node) || depth > maxDepth) continue;
    seen.add(node);
    for (const union of node.unions ?? []) out.push({ union, data, path });
    const props = node.properties;
    if (props)
      for (const k of Object.keys(props))
        stack.push([props[k]!, [...data, k], [...path, ...schemaProperty(k)], depth + 1]);
    if (node.items) stack.push([node.items, [...data, { key: "*" }], [...path, "items"], depth + 1]);
    if (node.additionalProperties) {
      stack.push([node.additionalProperties, [...data, { key: "*" }], [...path, "additionalProperties"], depth + 1]);
    }
  }
  return out;
}

const unionKey = (l: Located) =>
  `${formatPath(l.data)}|${l.union.members
    .map((m) => m.field)
    .sort()
    .join(",")}`;

export const unionWithoutDiscriminator: RuleDescriptor = {
  id: "union-without-discriminator",
  severity: "warning",
  description: "a new union without a discriminator (the KEP asks new unions to have one)",
  crd({ old, new: rev }) {
    const out: RuleHit[] = [];
    for (const v of rev.versions) {
      const before = new Set(olderUnions(old, v.name).map(unionKey));
      for (const l of unionsOf(v)) {
        if (l.union.discriminator !== undefined || before.has(unionKey(l))) continue;
        out.push({
          path: l.path,
          version: v.name,
          field: fieldOf(v.name, l.data),
          detail: `a new union of ${fields(l.union)} (${l.union.origin}) has no discriminator; clients cannot tell which member is meant when they do not know one`,
          newValue: l.union.members.map((m) => m.field),
        });
      }
    }
    return out;
  },
};

/** The unions the old revision had for this version (every version's, when the version is new). */
function olderUnions(old: Revision, name: string): Located[] {
  const same = old.versions.filter((v) => v.name === name);
  return (same.length > 0 ? same : old.versions).flatMap(unionsOf);
}
