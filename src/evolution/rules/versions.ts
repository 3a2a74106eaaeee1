import { isDNS1035Label } from "../../names/index.js";
import { type FieldPath, formatPath } from "../../path/index.js";
import { getKey } from "../../value/index.js";
import { type Revision, versionNamed } from "../revision.js";
import type { RuleDescriptor, RuleHit } from "../rule.js";

const versionsPath = (rev: Revision): FieldPath =>
  Array.isArray(getKey(rev.spec, "versions")) ? ["spec", "versions"] : ["spec"];

export const identityChanged: RuleDescriptor = {
  id: "identity-changed",
  severity: "error",
  description: "group, names.plural, names.kind or scope changed",
  crd({ old, new: rev }) {
    const parts: Array<[FieldPath, string, string, string]> = [
      [["metadata", "name"], old.name, rev.name, "it is another CRD: objects of the old one are not carried over"],
      [
        ["spec", "group"],
        old.group,
        rev.group,
        "objects are addressed by group: clients and stored objects are cut off",
      ],
      [
        ["spec", "names", "plural"],
        old.plural,
        rev.plural,
        "the resource path changes: clients and RBAC rules are cut off",
      ],
      [["spec", "names", "kind"], old.kind, rev.kind, "stored objects and manifests name the old kind"],
      [["spec", "scope"], old.scope, rev.scope, "stored objects cannot change scope; the API server forbids it"],
    ];
    return parts
      .filter(([, a, b]) => a !== b)
      .map(([path, a, b, why]) => ({
        path,
        oldPath: path,
        field: formatPath(path),
        detail: `${JSON.stringify(a)} became ${JSON.stringify(b)}; ${why}`,
        oldValue: a,
        newValue: b,
      }));
  },
};

/** Versions objects may be stored in: the storage version and every `status.storedVersions` entry. */
function storedIn(rev: Revision): Set<string> {
  const stored = rev.versions.filter((v) => v.storage || rev.storedVersions.includes(v.name));
  return new Set([...stored.map((v) => v.name), ...rev.storedVersions]);
}

export const versionRemoved: RuleDescriptor = {
  id: "version-removed",
  severity: "error",
  description: "a version of the old CRD is gone",
  crd({ old, new: rev }) {
    const stored = storedIn(old);
    const seen = new Set<string>();
    return old.versions.flatMap((v): RuleHit[] => {
      // A stored version that is gone is reported once, by stored-version-removed.
      if (seen.has(v.name) || versionNamed(rev, v.name) || stored.has(v.name)) return [];
      seen.add(v.name);
      return [
        {
          path: versionsPath(rev),
          oldPath: v.path,
          version: v.name,
          field: v.name,
          detail: `version ${v.name} removed; clients and manifests that use ${v.name} fail (keep it with served: false first)`,
          oldValue: v.name,
        },
      ];
    });
  },
};

export const storedVersionRemoved: RuleDescriptor = {
  id: "stored-version-removed",
  severity: "error",
  description:
    "a version that was storage (or is listed in the old status.storedVersions) is gone: the API server refuses the update until a storage migration is done",
  crd({ old, new: rev }) {
    const out: RuleHit[] = [];
    const reported = new Set<string>();
    for (const name of storedIn(old)) {
      if (versionNamed(rev, name)) continue;
      reported.add(name);
      const at = versionNamed(old, name);
      out.push({
        path: versionsPath(rev),
        oldPath: at ? at.path : ["status", "storedVersions", old.storedVersions.indexOf(name)],
        version: name,
        field: name,
        detail: `version ${name} removed while objects may be stored in it; the API server refuses the update until the objects are migrated and ${name} is dropped from status.storedVersions`,
        oldValue: name,
      });
    }
    // The new document's own status must list only versions it has.
    rev.storedVersions.forEach((name, i) => {
      if (versionNamed(rev, name) || reported.has(name)) return;
      reported.add(name);
      out.push({
        path: ["status", "storedVersions", i],
        version: name,
        field: name,
        detail: `status.storedVersions lists ${name}, which spec.versions no longer has; the API server refuses the update`,
        oldValue: name,
      });
    });
    return out;
  },
};

export const versionUnserved: RuleDescriptor = {
  id: "version-unserved",
  severity: "warning",
  description: "served: true → false",
  crd({ old, new: rev }) {
    return rev.versions.flatMap((v): RuleHit[] => {
      const before = versionNamed(old, v.name);
      if (!before?.served || v.served) return [];
      return [
        {
          path: [...v.path, "served"],
          oldPath: [...before.path, "served"],
          version: v.name,
          field: v.name,
          detail: `version ${v.name} no longer served; clients and manifests that use it fail`,
          oldValue: true,
          newValue: false,
        },
      ];
    });
  },
};

export const storageVersionChanged: RuleDescriptor = {
  id: "storage-version-changed",
  severity: "warning",
  description: "storage moved to another version: stored objects need migration; the old one stays in storedVersions",
  crd({ old, new: rev }) {
    const from = old.versions.filter((v) => v.storage);
    const to = rev.versions.filter((v) => v.storage);
    const a = from[0];
    const b = to[0];
    // A storage version that is gone is stored-version-removed; several or none, storage-version-count.
    if (from.length !== 1 || to.length !== 1 || !a || !b || a.name === b.name || !versionNamed(rev, a.name)) return [];
    return [
      {
        path: [...b.path, "storage"],
        oldPath: [...a.path, "storage"],
        version: b.name,
        field: b.name,
        detail: `storage moved from ${a.name} to ${b.name}; objects stay stored as ${a.name} (and ${a.name} in status.storedVersions) until they are migrated`,
        oldValue: a.name,
        newValue: b.name,
      },
    ];
  },
};

export const storageVersionCount: RuleDescriptor = {
  id: "storage-version-count",
  refusedByServer: true,
  severity: "error",
  description: "not exactly one storage version",
  state(rev) {
    const storage = rev.versions.filter((v) => v.storage).map((v) => v.name);
    if (storage.length === 1) return [];
    const detail =
      storage.length === 0
        ? "no version has storage: true; the API server needs exactly one"
        : `${storage.length} versions have storage: true (${storage.join(", ")}); the API server needs exactly one`;
    return [
      { path: versionsPath(rev), field: "spec.versions", detail, key: storage.length === 0 ? "none" : "several" },
    ];
  },
};

export const versionNameInvalid: RuleDescriptor = {
  id: "version-name-invalid",
  refusedByServer: true,
  severity: "error",
  description: "not a DNS-1035 label, or duplicated",
  state(rev) {
    const out: RuleHit[] = [];
    const seen = new Set<string>();
    for (const v of rev.versions) {
      const path = [...v.path, "name"];
      const errs = isDNS1035Label(v.name);
      if (errs.length > 0) {
        out.push({
          path,
          version: v.name,
          field: v.name || formatPath(path),
          detail: `version name ${JSON.stringify(v.name)}: ${errs.join("; ")}`,
          newValue: v.name,
        });
      }
      if (seen.has(v.name)) {
        out.push({
          path,
          version: v.name,
          field: v.name,
          detail: `version ${v.name} is listed twice; the API server rejects duplicates`,
          newValue: v.name,
        });
      }
      seen.add(v.name);
    }
    return out;
  },
};
