/**
 * What a change removes: a CustomResourceDefinition that was served, or
 * whose versions may be stored, deleted with its file (or taken out of a
 * file that keeps no CRD), and a Conversion declaration a remaining CRD
 * still needs. A CRD that moved to a new file (a rename git did not pair)
 * is paired with its old file as git pairs a rename, so `kunion check` and
 * the Action report a renamed CRD file alike, whether or not git saw it.
 */
import {
  type ChangedFile,
  type ChangeFinding,
  displayText,
  type Finding,
  finding,
  getKey,
  isConversion,
  isCrd,
  isObject,
  type JsonValue,
  readCrd,
  type SourceDocument,
  type TextFile,
  withListItems,
} from "../index.js";
import { type Parse, parseOnce } from "./parse.js";

export interface Removals {
  /** Deleted files, with their text at the base. */
  deleted: readonly TextFile[];
  changed: readonly ChangedFile[];
  /** The repository's CRDs beyond the changed files. */
  crds: readonly TextFile[];
  /** The repository's Conversion declarations beyond the changed and deleted files, read when one is gone. */
  conversions: () => readonly TextFile[];
  /** The check's parser, shared with pairMoves and checkChanges so that no text is parsed twice. */
  parse?: Parse;
}

const nameOf = (value: JsonValue) => {
  const meta = isObject(value) ? getKey(value, "metadata") : undefined;
  return isObject(meta) ? displayText(getKey(meta, "name")) : "";
};

function removal(rule: string, detail: string, doc: SourceDocument): Finding {
  const { line, column } = doc.locate([]);
  const f: ChangeFinding = {
    ...finding({ type: "CrdChange", path: [], detail, rule }),
    message: detail,
    file: doc.file,
    line,
    column,
    oldFile: doc.file,
    oldLine: line,
  };
  return f;
}

/** Why deleting a CRD loses data: the versions it serves and those objects may be stored in. */
function inUse(value: JsonValue): { served: string[]; stored: string[] } {
  if (!isObject(value)) return { served: [], stored: [] };
  const { crd } = readCrd(value);
  const status = getKey(value, "status");
  const listed = isObject(status) ? getKey(status, "storedVersions") : undefined;
  const stored = new Set(crd.versions.filter((v) => v.storage).map((v) => v.name));
  if (Array.isArray(listed)) for (const v of listed) if (typeof v === "string") stored.add(v);
  return { served: crd.versions.filter((v) => v.served).map((v) => v.name), stored: [...stored] };
}

export function removalFindings(input: Removals): Finding[] {
  const { changed } = input;
  const parse = input.parse ?? parseOnce();
  // a CRD may come as an item of a List, as the catalog and the comparisons read it
  const documents = (text: string, path: string) => withListItems(parse(text, path).documents);
  const parsed = (files: readonly TextFile[]) => files.flatMap((f) => documents(f.text, f.path));
  // Files whose CRDs or declarations are gone: deleted ones, and changed ones that keep no CRD.
  const emptied = changed.filter(
    (f) =>
      f.before !== undefined &&
      /CustomResourceDefinition/.test(f.before) &&
      !documents(f.after, f.path).some((d) => isCrd(d.value)),
  );
  const gone = [...input.deleted, ...emptied.map((f) => ({ path: f.path, text: f.before as string }))];
  if (gone.length === 0) return [];
  const oldCrds = parsed(gone).filter((d) => isCrd(d.value));
  const oldConversions = parsed(input.deleted).filter(isConversion);
  if (oldCrds.length === 0 && oldConversions.length === 0) return [];
  const nowByFile = changed.map((f) => ({ file: f, docs: documents(f.after, f.path) }));
  const repositoryCrds = parsed(input.crds).filter((d) => isCrd(d.value));
  const out: Finding[] = [];
  for (const old of oldCrds) {
    const name = nameOf(old.value);
    // Moved to another file: compared there (see pairMoves).
    if (nowByFile.some(({ docs }) => docs.some((d) => isCrd(d.value) && nameOf(d.value) === name))) continue;
    if (repositoryCrds.some((d) => nameOf(d.value) === name)) continue;
    const { served, stored } = inUse(old.value);
    if (served.length === 0 && stored.length === 0) continue;
    const why = [
      served.length > 0 ? `it serves ${served.join(", ")}` : "",
      stored.length > 0 ? `objects may be stored as ${stored.join(", ")}` : "",
    ]
      .filter(Boolean)
      .join(" and ");
    out.push(
      removal(
        "crd-removed",
        `the CustomResourceDefinition ${name} is deleted while ${why}: the API server deletes every object of it with the CRD, and clients of its API fail`,
        old,
      ),
    );
  }
  if (oldConversions.length > 0) {
    const remainingCrds = [...nowByFile.flatMap(({ docs }) => docs.filter((d) => isCrd(d.value))), ...repositoryCrds];
    const goneConversionFiles = new Set(input.deleted.map((f) => f.path));
    const remainingConversions = [
      ...nowByFile.flatMap(({ docs }) => docs.filter(isConversion)),
      ...parsed(input.conversions().filter((f) => !goneConversionFiles.has(f.path))).filter(isConversion),
    ];
    for (const conv of oldConversions) {
      const target = declared(conv.value);
      if (remainingConversions.some((c) => declared(c.value) === target)) continue;
      for (const crdDoc of remainingCrds) {
        if (!isObject(crdDoc.value)) continue;
        const { crd } = readCrd(crdDoc.value);
        const served = crd.versions.filter((v) => v.served).map((v) => v.name);
        if (`${crd.group}/${crd.kind}` !== target || served.length < 2) continue;
        out.push(
          removal(
            "conversion",
            `the Conversion declaration for ${target} is deleted, but the CustomResourceDefinition ${crd.name} (${crdDoc.file}) still serves ${served.join(", ")}: objects can no longer be converted between them`,
            conv,
          ),
        );
      }
    }
  }
  return out;
}

/** `group/kind` a Conversion declaration is for. */
function declared(value: JsonValue): string {
  const spec = isObject(value) ? getKey(value, "spec") : undefined;
  return isObject(spec) ? `${displayText(getKey(spec, "group"))}/${displayText(getKey(spec, "kind"))}` : "";
}

/**
 * New files holding a CRD that a deleted file held (by name): each paired
 * with that file as its base revision, as git pairs a rename, and the
 * deleted file dropped. What git pairs, and what it does not (the content
 * changed too much, or `kunion check`'s work tree), ends up the same.
 */
export function pairMoves(
  changed: readonly ChangedFile[],
  deleted: readonly TextFile[],
  parse: Parse = parseOnce(),
): { changed: ChangedFile[]; deleted: TextFile[] } {
  const crdNames = (text: string, path: string) =>
    withListItems(parse(text, path).documents)
      .filter((d) => isCrd(d.value))
      .map((d) => nameOf(d.value));
  const left = deleted.map((f) => ({
    file: f,
    names: /CustomResourceDefinition/.test(f.text) ? crdNames(f.text, f.path) : [],
  }));
  const paired = new Set<string>();
  const out = changed.map((f) => {
    if (f.before !== undefined || !/CustomResourceDefinition/.test(f.after)) return f;
    const names = new Set(crdNames(f.after, f.path));
    const from = left.find((d) => !paired.has(d.file.path) && d.names.some((n) => names.has(n)));
    if (from === undefined) return f;
    paired.add(from.file.path);
    return { ...f, before: from.file.text };
  });
  return { changed: out, deleted: deleted.filter((f) => !paired.has(f.path)) };
}
