/**
 * The warnings the API server sends back when it accepts a storage object: a PersistentVolume's
 * (pkg/api/persistentvolume/util.go GetWarningsForPersistentVolume, called by the PersistentVolume
 * strategy's WarningsOnCreate and WarningsOnUpdate), a StorageClass's and a CSIStorageCapacity's
 * (pkg/api/storage/util.go GetWarningsForStorageClass, GetWarningsForCSIStorageCapacity). Each is
 * returned in Go's order, its path built as Go builds it; where Go walks a map (a selector's
 * matchLabels), the labels are taken in the order they are written, one of the orders Go may take.
 */
import type { Finding } from "../../findings/index.js";
import { child, type FieldPath } from "../../path/index.js";
import type { JsonObject } from "../../value/index.js";
import { isSet, objectAt, objectItems, stringAt, warningAt } from "./common.js";
import { deprecatedNodeLabels, nodeSelectorTermWarnings } from "./node-labels.js";

/**
 * Annotations a PersistentVolume once needed, each with what replaced it. The storage class one warns
 * since kubernetes#117036 (1.28); the mount options one since kubernetes#124819 (1.31, "Deprecation"
 * in the v1.31.0-rc.0 changelog), so both are there in every release kunion checks. The storage class
 * one came first and the mount options one was added beside it, as util_test.go lists them.
 */
const deprecatedVolumeAnnotations: readonly (readonly [annotation: string, text: string])[] = [
  ["volume.beta.kubernetes.io/storage-class", 'deprecated since v1.8; use "storageClassName" attribute instead'],
  ["volume.beta.kubernetes.io/mount-options", 'deprecated since v1.31; use "mountOptions" attribute instead'],
];

/**
 * In-tree volume plugins Kubernetes dropped, by their JSON field: the name Go puts in the path (`storageOS`
 * for `storageos`) and what became of the plugin, in the same words in a pod's warnings and a
 * PersistentVolume's (the same since the last of them, cephfs and rbd, in 1.31).
 */
const droppedVolumePlugins: ReadonlyMap<string, readonly [named: string, text: string]> = new Map([
  ["photonPersistentDisk", ["photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+"]],
  ["scaleIO", ["scaleIO", "deprecated in v1.16, non-functional in v1.22+"]],
  ["flocker", ["flocker", "deprecated in v1.22, non-functional in v1.25+"]],
  ["storageos", ["storageOS", "deprecated in v1.22, non-functional in v1.25+"]],
  ["quobyte", ["quobyte", "deprecated in v1.22, non-functional in v1.25+"]],
  ["glusterfs", ["glusterfs", "deprecated in v1.25, non-functional in v1.26+"]],
  ["cephfs", ["cephfs", "deprecated in v1.28, non-functional in v1.31+"]],
  ["rbd", ["rbd", "deprecated in v1.28, non-functional in v1.31+"]],
]);

/** The warnings for the dropped plugins among `fields` that `source` sets, in the order of `fields` (Go's). */
export function droppedVolumePluginWarnings(
  source: JsonObject | undefined,
  at: FieldPath,
  fields: readonly string[],
): Finding[] {
  return fields.flatMap((field) => {
    const dropped = droppedVolumePlugins.get(field);
    return dropped === undefined || !isSet(source, field) ? [] : [warningAt(child(at, dropped[0]), dropped[1])];
  });
}

/**
 * warningsForPersistentVolumeSpecAndMeta for a v1 PersistentVolume (its field path is nil, so paths
 * start at the object): the deprecated annotations, the Recycle reclaim policy (kubernetes#122339,
 * 1.30), deprecated node labels in the required node affinity, then the dropped volume plugins. Every
 * one of them predates 1.32, and no change to them in 1.32–1.36 is known (the last in-tree plugin,
 * portworx, was removed in 1.36 by kubernetes#135322 without a warning), so `minor` selects nothing
 * yet; it is taken for the warnings a later release adds.
 */
export function persistentVolumeWarnings(object: JsonObject): Finding[] {
  const out: Finding[] = [];
  const annotations = objectAt(objectAt(object, "metadata"), "annotations");
  for (const [annotation, text] of deprecatedVolumeAnnotations)
    if (annotations !== undefined && Object.hasOwn(annotations, annotation))
      out.push(warningAt(["metadata", "annotations", { key: annotation }], text));

  const spec = objectAt(object, "spec");
  // Only the value itself: an unset policy defaults to Retain.
  if (stringAt(spec, "persistentVolumeReclaimPolicy") === "Recycle")
    out.push(
      warningAt(
        ["spec", "persistentVolumeReclaimPolicy"],
        "The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.",
      ),
    );

  const termsAt: FieldPath = ["spec", "nodeAffinity", "required", "nodeSelectorTerms"];
  const required = objectAt(objectAt(spec, "nodeAffinity"), "required");
  for (const [i, term] of objectItems(required, "nodeSelectorTerms"))
    out.push(...nodeSelectorTermWarnings(term, child(termsAt, i)));

  out.push(
    ...droppedVolumePluginWarnings(
      spec,
      ["spec"],
      ["cephfs", "photonPersistentDisk", "scaleIO", "storageos", "glusterfs", "rbd"],
    ),
  );
  return out;
}

/**
 * GetWarningsForStorageClass: a deprecated node label as the key of an allowed topology's label
 * expression. Unlike the selectors' warnings, the text is the label's note alone, with no
 * `<label> is` before it. The path ends in `.key`, as it has since 2023 at the latest (kubectl's
 * output quoted in kubernetes/website#42328), so in every release kunion checks.
 */
export function storageClassWarnings(object: JsonObject): Finding[] {
  const out: Finding[] = [];
  for (const [i, topology] of objectItems(object, "allowedTopologies"))
    for (const [j, expression] of objectItems(topology, "matchLabelExpressions")) {
      const text = deprecatedNodeLabels.get(stringAt(expression, "key") ?? "");
      if (text !== undefined) out.push(warningAt(["allowedTopologies", i, "matchLabelExpressions", j, "key"], text));
    }
  return out;
}

/**
 * GetWarningsForCSIStorageCapacity, which is pkg/api/node/util.go GetWarningsForNodeSelector on
 * `nodeTopology`: its match expressions first (`<label> is <note>` at `matchExpressions[i].key`), then
 * its match labels (the note alone). Go names a label with `.Child(label)`, not `.Key(label)`, so the
 * path prints it after a dot, `nodeTopology.matchLabels.beta.kubernetes.io/os`; a plain name segment
 * prints the same here, where a `{ key }` segment would print brackets.
 */
export function csiStorageCapacityWarnings(object: JsonObject): Finding[] {
  const topology = objectAt(object, "nodeTopology");
  if (topology === undefined) return [];
  const at: FieldPath = ["nodeTopology"];
  const out = nodeSelectorTermWarnings(topology, at);
  for (const label of Object.keys(objectAt(topology, "matchLabels") ?? {})) {
    const text = deprecatedNodeLabels.get(label);
    if (text !== undefined) out.push(warningAt(child(at, "matchLabels", label), text));
  }
  return out;
}
