/**
 * storage.k8s.io kinds a cluster's CSI drivers and their operators write, as the API server validates them
 * on create (kubernetes/kubernetes pkg/apis/storage/validation/validation.go; storage/v1 defaults none of
 * them, so nothing is defaulted first). Every name rule here is NameIsDNSSubdomain (ValidateClassName,
 * ValidateNodeName, ValidateStorageCapacityName), which the generic metadata check already applies.
 *
 * - VolumeAttributesClass (v1alpha1, v1beta1, v1 from 1.34, the same rules):
 *   ValidateVolumeAttributesClass, whose driverName is validateProvisioner's (a qualified name once
 *   lower-cased, the lower-cased name the bad value) and whose parameters are validateParameters' without
 *   an empty map allowed.
 * - VolumeAttachment: ValidateVolumeAttachment (validateVolumeAttachmentSpec: validateAttacher,
 *   validateVolumeAttachmentSource, validateNodeName) and, the strategy adds it for storage.k8s.io/v1,
 *   ValidateVolumeAttachmentV1 (core's ValidateCSIDriverName of the attacher, ValidatePersistentVolumeName).
 *   The status is cleared by PrepareForCreate, so not checked. Not ported: an inlineVolumeSpec's own rules
 *   (ValidatePersistentVolumeSpec in its inline mode), which persistent-volumes.ts checks only at a
 *   PersistentVolume's `spec` and not inline.
 * - CSINode: ValidateCSINode (validateCSINodeDrivers, validateCSINodeDriver, validateCSINodeDriverNodeID,
 *   validateCSINodeDriverAllocatable), with the strategy's AllowLongNodeID (node IDs up to 256 bytes).
 * - CSIStorageCapacity: ValidateCSIStorageCapacity (its nodeTopology a label selector checked strictly, as
 *   on create; its storageClassName a class name; its capacity not negative).
 *
 * A field the schema marks required is reported Required here only when present and empty: absent, it is
 * the schema's finding (its other checks, on Go's "", still run). Repeated messages are said once by
 * validateHandWritten (index.ts).
 */
import { type Finding, tooLong } from "../../findings/index.js";
import { quantitySign, quantityString } from "../../go/index.js";
import { byteLength, isQualifiedName, nameIsDNSSubdomain } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, isObject, type JsonObject } from "../../value/index.js";
import {
  asError,
  duplicate,
  forbidden,
  invalid,
  invalidEach,
  isNegativeErrorMsg,
  isSet,
  listAt,
  nonNegativeAt,
  objectAt,
  objectItems,
  once,
  required,
  requiredIfEmpty,
  stringAt,
  validateLabelSelector,
} from "./common.js";
import { quantityOf } from "./quantity.js";
import { validateCSIDriverName } from "./volumes.js";

// ---------------------------------------------------------------------------
// shared

const maxProvisionerParameterSize = 256 * 1024;
const maxProvisionerParameterLen = 512;

/**
 * validateProvisioner of `key` (a StorageClass's provisioner, a VolumeAttributesClass's driverName):
 * Required when empty, else a qualified name once lower-cased, the lower-cased name the bad value.
 */
export function validateProvisioner(o: JsonObject, key: string): Finding[] {
  const value = stringAt(o, key);
  if (value === undefined) return [];
  if (value === "") return requiredIfEmpty(o, key, []);
  const lower = value.toLowerCase();
  return invalidEach([key], lower, isQualifiedName(lower));
}

/**
 * validateParameters at `parameters`: at most 512 entries (nothing else said past that), no empty key,
 * keys and values 256 KiB at most together, and, unless `allowEmpty`, at least one entry. An absent map is
 * Go's empty one.
 */
export function validateParameters(o: JsonObject, allowEmpty: boolean): Finding[] {
  const raw = getKey(o, "parameters");
  if (raw !== undefined && raw !== null && !isObject(raw)) return []; // the schema's
  const entries = Object.entries(isObject(raw) ? raw : {});
  const at: FieldPath = ["parameters"];
  if (entries.length > maxProvisionerParameterLen) return [tooLong(at, "", maxProvisionerParameterLen, asError)];
  const out: Finding[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k === "") out.push(invalid(at, k, "field can not be empty.", asError));
    size += byteLength(k) + (typeof v === "string" ? byteLength(v) : 0);
  }
  if (size > maxProvisionerParameterSize) out.push(tooLong(at, "", maxProvisionerParameterSize, asError));
  if (!allowEmpty && entries.length === 0) out.push(required(at, "must contain at least one key/value pair", asError));
  return out;
}

// ---------------------------------------------------------------------------
// VolumeAttributesClass

/** ValidateVolumeAttributesClass. */
export function validateVolumeAttributesClass(object: JsonObject): Finding[] {
  return [...validateProvisioner(object, "driverName"), ...validateParameters(object, false)];
}

// ---------------------------------------------------------------------------
// VolumeAttachment

const exactlyOneSource = "must specify exactly one of inlineVolumeSpec and persistentVolumeName";

/** ValidateVolumeAttachment's spec, then ValidateVolumeAttachmentV1, in Go's order. */
export function validateVolumeAttachment(object: JsonObject): Finding[] {
  const spec = objectAt(object, "spec");
  if (spec === undefined) return []; // the schema's `required`
  const at: FieldPath = ["spec"];
  // validateAttacher.
  const out = requiredIfEmpty(spec, "attacher", at);
  // validateVolumeAttachmentSource: a source the schema finds absent is left to it.
  const source = objectAt(spec, "source");
  const sourceAt = child(at, "source");
  const pvName = source === undefined ? undefined : stringAt(source, "persistentVolumeName");
  if (source !== undefined) {
    const inline = isSet(source, "inlineVolumeSpec");
    const byName = isSet(source, "persistentVolumeName");
    if (!inline && !byName) out.push(required(sourceAt, exactlyOneSource, asError));
    else if (inline && byName) out.push(forbidden(sourceAt, exactlyOneSource, asError));
    else if (byName && pvName === "")
      out.push(
        required(child(sourceAt, "persistentVolumeName"), "must specify non empty persistentVolumeName", asError),
      );
  }
  // validateNodeName: ValidateNodeName is NameIsDNSSubdomain.
  const nodeName = stringAt(spec, "nodeName");
  if (nodeName !== undefined)
    out.push(...invalidEach(child(at, "nodeName"), nodeName, nameIsDNSSubdomain(nodeName, false)));
  // ValidateVolumeAttachmentV1.
  out.push(...validateCSIDriverName(spec, at, "attacher"));
  if (source !== undefined && isSet(source, "persistentVolumeName") && pvName !== undefined)
    out.push(...invalidEach(child(sourceAt, "persistentVolumeName"), pvName, nameIsDNSSubdomain(pvName, false)));
  // the attacher's Required is said by both validateAttacher and ValidateCSIDriverName, printed once
  return once(out);
}

// ---------------------------------------------------------------------------
// CSINode

/** The strategy's AllowLongNodeID: csiNodeIDLongerMaxLength, not the older 192. */
const csiNodeIDMaxLength = 256;

/** ValidateCSINode's spec: validateCSINodeDrivers. */
export function validateCSINode(object: JsonObject): Finding[] {
  const spec = objectAt(object, "spec");
  const out: Finding[] = [];
  const names = new Set<string>();
  for (const [i, driver] of objectItems(spec, "drivers")) {
    const at: FieldPath = ["spec", "drivers", i];
    // validateCSINodeDriver.
    out.push(...validateCSIDriverName(driver, at, "name"));
    // validateCSINodeDriverNodeID.
    const nodeID = stringAt(driver, "nodeID");
    if (nodeID !== undefined) {
      out.push(...requiredIfEmpty(driver, "nodeID", at));
      if (byteLength(nodeID) > csiNodeIDMaxLength)
        out.push(invalid(child(at, "nodeID"), nodeID, `must be ${csiNodeIDMaxLength} characters or less`, asError));
    }
    // validateCSINodeDriverAllocatable.
    out.push(...nonNegativeAt(objectAt(driver, "allocatable"), "count", child(at, "allocatable")));
    const name = stringAt(driver, "name");
    if (name !== undefined) {
      if (names.has(name)) out.push(duplicate(child(at, "name"), name, asError));
      names.add(name);
    }
    // The topology keys, each reported at the driver.
    const keys = new Set<string>();
    for (const key of listAt(driver, "topologyKeys")) {
      if (typeof key !== "string") continue;
      if (key === "") out.push(required(at, "", asError));
      if (keys.has(key)) out.push(duplicate(at, key, asError));
      keys.add(key);
      out.push(...invalidEach(at, key, isQualifiedName(key)));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// CSIStorageCapacity

/** ValidateCSIStorageCapacity. */
export function validateCSIStorageCapacity(object: JsonObject): Finding[] {
  const out = validateLabelSelector(objectAt(object, "nodeTopology"), ["nodeTopology"]);
  // ValidateClassName is NameIsDNSSubdomain.
  const className = stringAt(object, "storageClassName");
  if (className !== undefined)
    out.push(...invalidEach(["storageClassName"], className, nameIsDNSSubdomain(className, false)));
  // ValidateNonnegativeQuantity: the bad value is the quantity's String, quoted.
  const capacity = quantityOf(getKey(object, "capacity"));
  if (capacity !== undefined && quantitySign(capacity) < 0)
    out.push(invalid(["capacity"], quantityString(capacity), isNegativeErrorMsg, asError));
  return out;
}
