/**
 * `kind: List` (what `kubectl get … -o yaml` prints) and typed lists such as
 * DeploymentList: kubectl applies each item on its own, so each item is a
 * document of its own, located inside the list's text. The objects to check
 * and the CRDs to declare are both read from the items.
 */
import type { Finding } from "../findings/index.js";
import { locateFinding, type SourceDocument } from "../source/index.js";
import { invalidTypeAt } from "../validate/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";

/** The items of a list document as documents of their own; undefined when `doc` is no list. */
export function listItemsOf(doc: SourceDocument): SourceDocument[] | undefined {
  if (!isObject(doc.value)) return undefined;
  const apiVersion = getKey(doc.value, "apiVersion");
  const kind = getKey(doc.value, "kind");
  const items = getKey(doc.value, "items");
  if (typeof apiVersion !== "string" || apiVersion === "" || typeof kind !== "string") return undefined;
  if (!kind.endsWith("List") || !Array.isArray(items)) return undefined;
  return items.map((item, i) => listItem(doc, item, i, apiVersion, kind));
}

/**
 * A v1 List whose items are no list, which kubectl cannot decode: its objects are unknown and the document is
 * refused. (A custom kind's name may end in List and hold items of its own: only v1 List is known to be a list.)
 */
export function undecodableList(doc: SourceDocument): Finding | undefined {
  if (!isObject(doc.value) || getKey(doc.value, "apiVersion") !== "v1" || getKey(doc.value, "kind") !== "List")
    return undefined;
  const items = getKey(doc.value, "items");
  if (items === undefined || items === null || Array.isArray(items)) return undefined;
  return locateFinding(doc, { ...invalidTypeAt(["items"], "array", items), rule: "object" });
}

/** The documents with every list replaced by its items, a list inside a list too. */
export function withListItems(documents: readonly SourceDocument[]): SourceDocument[] {
  return documents.flatMap((doc) => {
    const items = listItemsOf(doc);
    return items === undefined ? [doc] : withListItems(items);
  });
}

/** A typed list's items may leave out apiVersion and kind: they are the list's. */
function listItem(
  doc: SourceDocument,
  item: JsonValue,
  index: number,
  apiVersion: string,
  kind: string,
): SourceDocument {
  let value = item;
  if (kind !== "List" && isObject(item)) {
    const typed: JsonObject = { ...item };
    if (!Object.hasOwn(item, "apiVersion")) typed.apiVersion = apiVersion;
    if (!Object.hasOwn(item, "kind")) typed.kind = kind.slice(0, -"List".length);
    value = typed;
  }
  return {
    file: doc.file,
    index: doc.index,
    value,
    locate: (path) => doc.locate(["items", index, ...path]),
    render: () => undefined,
    within: { document: doc, path: ["items", index] },
  };
}
