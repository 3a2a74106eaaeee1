/**
 * The API server's own messages for built-in unions. Where Kubernetes checks a
 * union with hand-written validation (pkg/apis/{core,apps}/validation) it
 * does not use apimachinery's generic union wording, and users compare kunion
 * with what `kubectl apply` prints, so these reproduce it: the same field
 * paths (typos included), the same order, the same details. A union's
 * `wording` key (set by the built-in registry) selects one here; it then
 * replaces the generic validation of that union entirely.
 *
 * Kubernetes validates after defaulting, kunion before: where the server
 * defaults a field that its validation would otherwise demand, nothing is
 * reported (for example `rollingUpdate` under a RollingUpdate strategy).
 * Bad values that the server prints with Go's `%#v` (whole structs) are
 * printed as JSON by `findings`; paths and details are exact.
 */
import { type Finding, forbidden, invalid, notSupported, required, type Severity } from "../findings/index.js";
import { child, type FieldPath, type PathSegment } from "../path/index.js";
import type { Union, UnionMember } from "../schema/index.js";
import { getKey, isObject, type JsonObject, type JsonValue } from "../value/index.js";
import { flowSchemaSubject, limitResponse, priorityLevelConfigurationSpec } from "./wording-flowcontrol.js";
import { deviceRequest } from "./wording-resource.js";

export interface WordingInput {
  union: Union;
  /** The struct holding the union. */
  path: FieldPath;
  node: JsonObject;
  isSet: (m: UnionMember) => boolean;
  /** Undefined when unset or not a string. */
  discriminatorValue?: string;
}

export type Wording = (input: WordingInput) => Finding[];

const extra = (severity: Severity = "error") => ({ rule: "union", severity }) as const;

// ---------------------------------------------------------------------------
// Helpers

type Discriminator = { state: "unset" } | { state: "value"; value: string } | { state: "malformed" };

/**
 * The discriminator as Go sees it: `""`, absent and null are all the empty
 * string (unset); a non-string would not decode at all (schema validation
 * reports it), so such a union is left to that report.
 */
function discriminatorOf({ union, node, discriminatorValue }: WordingInput): Discriminator {
  if (discriminatorValue !== undefined && discriminatorValue !== "")
    return { state: "value", value: discriminatorValue };
  const raw = union.discriminator === undefined ? undefined : getKey(node, union.discriminator);
  if (raw === undefined || raw === null || raw === "") return { state: "unset" };
  return typeof raw === "string" ? { state: "value", value: raw } : { state: "malformed" };
}

/** Set-ness of a field: through the union's member when it has one, else present and not null. */
function fieldIsSet(input: WordingInput, field: string): boolean {
  const member = input.union.members.find((m) => m.field === field);
  if (member) return input.isSet(member);
  const v = getKey(input.node, field);
  return v !== undefined && v !== null;
}

interface OrderedMember {
  field: string;
  /** The path segment the server prints, when it differs from the field name. */
  printedAs?: string;
  /** The server counts it without ever reporting it as one too many. */
  neverForbidden?: true;
}

/**
 * The `numHandlers` / `numVolumes` pattern of core validation: members are
 * walked in the validator's order, the first set one counts, each further set
 * one is Forbidden at its own path; none set is Required at the struct.
 * Members of the union missing from `order` are walked after it.
 */
function firstOneCounts(
  input: WordingInput,
  order: readonly OrderedMember[],
  tooMany: string,
  none: string,
): Finding[] {
  const known = new Set(order.map((m) => m.field));
  const walk: OrderedMember[] = [
    ...order.filter((m) => input.union.members.some((u) => u.field === m.field)),
    ...input.union.members.filter((u) => !known.has(u.field)).map((u) => ({ field: u.field })),
  ];
  const out: Finding[] = [];
  let count = 0;
  for (const m of walk) {
    if (!fieldIsSet(input, m.field)) continue;
    if (count > 0 && !m.neverForbidden) {
      out.push(forbidden(child(input.path, m.printedAs ?? m.field), tooMany, extra()));
    } else {
      count++;
    }
  }
  if (count === 0) out.push(required(input.path, none, extra()));
  return out;
}

/** `fldPath` of a list item's validator when it reports at the list (ValidateEnvFrom does). */
function listPathOf(path: FieldPath): FieldPath {
  const last: PathSegment | undefined = path[path.length - 1];
  return last !== undefined && typeof last !== "string" ? path.slice(0, -1) : path;
}

const fieldValue = (node: JsonObject, field: string): JsonValue | undefined => getKey(node, field);

// ---------------------------------------------------------------------------
// apps/v1 strategies (pkg/apis/apps/validation)

/**
 * The apps strategies' shared switch: RollingUpdate needs nothing (an absent
 * `rollingUpdate` is defaulted, or not needed), the other type reports a set
 * `rollingUpdate` with `stale`, an unset type is defaulted, and any other type
 * is reported with `unknown`. Each validator words its findings its own way.
 */
function rollingUpdateStrategy(
  otherType: string,
  stale: (rollingUpdate: FieldPath, value: JsonValue | undefined) => Finding,
  unknown: (input: WordingInput) => Finding,
): Wording {
  return (input) => {
    const d = discriminatorOf(input);
    if (d.state !== "value" || d.value === "RollingUpdate") return [];
    if (d.value !== otherType) return [unknown(input)];
    if (!fieldIsSet(input, "rollingUpdate")) return [];
    return [stale(child(input.path, "rollingUpdate"), fieldValue(input.node, "rollingUpdate"))];
  };
}

/**
 * ValidateDeploymentStrategy. An unset type is defaulted to RollingUpdate, and
 * under RollingUpdate the server defaults `rollingUpdate` too
 * (SetDefaults_Deployment), so its "this should be defaulted and never be nil"
 * can never reach a user. An unknown type is NotSupported at the strategy
 * itself, with the whole strategy as the bad value.
 */
const deploymentStrategy = rollingUpdateStrategy(
  "Recreate",
  (rollingUpdate) => forbidden(rollingUpdate, "may not be specified when strategy `type` is 'Recreate'", extra()),
  (input) => notSupported(input.path, input.node, ["Recreate", "RollingUpdate"], extra()),
);

/**
 * ValidateDaemonSetUpdateStrategy. Unset and RollingUpdate without
 * `rollingUpdate` are defaulted (SetDefaults_DaemonSet). An unknown type is
 * NotSupported at the strategy, with the strategy as the bad value.
 *
 * OnDelete with `rollingUpdate`: the API server accepts it (its OnDelete case
 * checks nothing and the controller ignores the field), so this is only a
 * warning — kunion must not fail where `kubectl apply` succeeds, yet the stale
 * member is the same leftover-from-another-member bug that breaks
 * Deployments, and it silently comes back into force when the type is
 * switched to RollingUpdate again.
 */
const daemonSetUpdateStrategy = rollingUpdateStrategy(
  "OnDelete",
  (rollingUpdate, value) =>
    invalid(rollingUpdate, value, 'may only be specified when `type` is "RollingUpdate"', extra("warning")),
  (input) => notSupported(input.path, input.node, ["RollingUpdate", "OnDelete"], extra()),
);

/**
 * ValidateStatefulSetSpec's `updateStrategy` switch. Unset is defaulted to
 * RollingUpdate (SetDefaults_StatefulSet) and RollingUpdate needs no
 * `rollingUpdate`. An unknown type is Invalid at `updateStrategy` with the
 * strategy as the bad value: "must be 'RollingUpdate' or 'OnDelete'".
 */
const statefulSetUpdateStrategy = rollingUpdateStrategy(
  "OnDelete",
  (rollingUpdate, value) => invalid(rollingUpdate, value, "only allowed for updateStrategy 'RollingUpdate'", extra()),
  (input) => invalid(input.path, input.node, "must be 'RollingUpdate' or 'OnDelete'", extra()),
);

// ---------------------------------------------------------------------------
// core/v1 (pkg/apis/core/validation)

/** validateHandler, for ProbeHandler (inline in Probe) and LifecycleHandler. */
const handlerOrder: readonly OrderedMember[] = ["exec", "httpGet", "tcpSocket", "grpc", "sleep"].map((field) => ({
  field,
}));
const handler: Wording = (input) =>
  firstOneCounts(input, handlerOrder, "may not specify more than 1 handler type", "must specify a handler type");

/**
 * validateVolumeSource walks the members in its own order, not the Go struct
 * order, and prints two of them under other names: `cephFS` for `cephfs` and
 * `downwarAPI` (sic) for `downwardAPI`.
 */
const volumeSourceOrder: readonly OrderedMember[] = [
  { field: "emptyDir" },
  { field: "hostPath" },
  { field: "gitRepo" },
  { field: "gcePersistentDisk" },
  { field: "awsElasticBlockStore" },
  { field: "secret" },
  { field: "nfs" },
  { field: "iscsi" },
  { field: "glusterfs" },
  { field: "flocker" },
  { field: "persistentVolumeClaim" },
  { field: "rbd" },
  { field: "cinder" },
  { field: "cephfs", printedAs: "cephFS" },
  { field: "quobyte" },
  { field: "downwardAPI", printedAs: "downwarAPI" },
  { field: "fc" },
  { field: "flexVolume" },
  { field: "configMap" },
  { field: "azureFile" },
  { field: "vsphereVolume" },
  { field: "photonPersistentDisk" },
  { field: "portworxVolume" },
  { field: "azureDisk" },
  { field: "storageos" },
  { field: "projected" },
  { field: "scaleIO" },
  { field: "csi" },
  { field: "ephemeral" },
  { field: "image" },
];
const volumeSource: Wording = (input) =>
  firstOneCounts(input, volumeSourceOrder, "may not specify more than 1 volume type", "must specify a volume type");

/**
 * ValidatePersistentVolumeSpec: its own order, `cephFS` for `cephfs`, and
 * `flexVolume` is counted but never reported as one too many (its branch has
 * no check), so a volume type before it passes alongside it.
 */
const persistentVolumeSourceOrder: readonly OrderedMember[] = [
  { field: "hostPath" },
  { field: "gcePersistentDisk" },
  { field: "awsElasticBlockStore" },
  { field: "glusterfs" },
  { field: "flocker" },
  { field: "nfs" },
  { field: "rbd" },
  { field: "quobyte" },
  { field: "cephfs", printedAs: "cephFS" },
  { field: "iscsi" },
  { field: "cinder" },
  { field: "fc" },
  { field: "flexVolume", neverForbidden: true },
  { field: "azureFile" },
  { field: "vsphereVolume" },
  { field: "photonPersistentDisk" },
  { field: "portworxVolume" },
  { field: "azureDisk" },
  { field: "scaleIO" },
  { field: "local" },
  { field: "storageos" },
  { field: "csi" },
];
const persistentVolumeSource: Wording = (input) =>
  firstOneCounts(
    input,
    persistentVolumeSourceOrder,
    "may not specify more than 1 volume type",
    "must specify a volume type",
  );

/**
 * validateEnvVarValueFrom, which judges the EnvVar union (`value` vs
 * `valueFrom`) and the EnvVarSource union inside `valueFrom` in one go and
 * reports exactly one error, always at `valueFrom`:
 * no source → "must specify one of"; else a non-empty `value` → "may not be
 * specified when `value` is not empty"; else several sources → "may not have
 * more than one field specified at a time".
 *
 * The choice: the EnvVar wording (whose node holds both `value` and
 * `valueFrom`) reports all three, and the EnvVarSource wording reports
 * nothing, because which of its two errors the server prints depends on the
 * parent's `value`, which that union cannot see. A nested `valueFrom`
 * therefore yields the server's single finding and never a second one.
 */
const envVarSourceFields = ["fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef", "fileKeyRef"];
const envVar: Wording = (input) => {
  if (!fieldIsSet(input, "valueFrom")) return [];
  const from = fieldValue(input.node, "valueFrom");
  if (!isObject(from)) return []; // not an object: schema validation reports it
  const at = child(input.path, "valueFrom");
  const sources = envVarSourceFields.filter((f) => {
    const v = getKey(from, f);
    return v !== undefined && v !== null;
  }).length;
  if (sources === 0) {
    const detail = "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`";
    return [invalid(at, "", detail, extra())];
  }
  if (fieldIsSet(input, "value")) {
    return [invalid(at, "", "may not be specified when `value` is not empty", extra())];
  }
  if (sources > 1) return [invalid(at, "", "may not have more than one field specified at a time", extra())];
  return [];
};

/** Reported by `envVar` (see there). */
const envVarSource: Wording = () => [];

/**
 * ValidateEnvFrom: exactly one of `configMapRef`, `secretRef`, reported at
 * the `envFrom` list itself, not at the item (the server passes the list's
 * path).
 */
const envFromSource: Wording = (input) => {
  const sources = ["configMapRef", "secretRef"].filter((f) => fieldIsSet(input, f)).length;
  const at = listPathOf(input.path);
  if (sources === 0) return [invalid(at, "", "must specify one of: `configMapRef` or `secretRef`", extra())];
  if (sources > 1) return [invalid(at, "", "may not have more than one field specified at a time", extra())];
  return [];
};

/**
 * networking's validateIngressBackend: both a Service and a resource, or neither, is Invalid at the backend with
 * an empty value; both, before anything else is checked.
 */
const ingressBackend: Wording = (input) => {
  const service = fieldIsSet(input, "service");
  const resource = fieldIsSet(input, "resource");
  if (service && resource) return [invalid(input.path, "", "cannot set both resource and service backends", extra())];
  if (!service && !resource) return [invalid(input.path, "", "resource or service backend is required", extra())];
  return [];
};

const profileTypes = ["Localhost", "RuntimeDefault", "Unconfined"];

/**
 * validateSeccompProfileField: the type first (Required when unset, else
 * NotSupported when unknown), then `localhostProfile`: required under
 * Localhost, and under any other type Invalid with the whole profile as the
 * bad value.
 */
const seccompProfile: Wording = (input) => {
  const d = discriminatorOf(input);
  if (d.state === "malformed") return [];
  const out: Finding[] = [];
  const type = child(input.path, "type");
  if (d.state === "unset") out.push(required(type, "type is required when seccompProfile is set", extra()));
  else if (!profileTypes.includes(d.value)) out.push(notSupported(type, d.value, profileTypes, extra()));
  const at = child(input.path, "localhostProfile");
  const set = fieldIsSet(input, "localhostProfile");
  if (d.state === "value" && d.value === "Localhost") {
    if (!set) out.push(required(at, "must be set when seccomp type is Localhost", extra()));
  } else if (set) {
    out.push(invalid(at, input.node, "can only be set when seccomp type is Localhost", extra()));
  }
  return out;
};

/**
 * ValidateAppArmorProfileField: one switch on the type. Localhost needs a
 * non-empty `localhostProfile`; RuntimeDefault and Unconfined forbid it
 * (Invalid, the profile name as the bad value); an unset type is Required and
 * an unknown one NotSupported, and then `localhostProfile` is not looked at.
 */
const appArmorProfile: Wording = (input) => {
  const d = discriminatorOf(input);
  if (d.state === "malformed") return [];
  const type = child(input.path, "type");
  if (d.state === "unset") return [required(type, "type is required when appArmorProfile is set", extra())];
  const at = child(input.path, "localhostProfile");
  const profile = fieldValue(input.node, "localhostProfile");
  switch (d.value) {
    case "Localhost":
      return !fieldIsSet(input, "localhostProfile") || profile === ""
        ? [required(at, "must be set when AppArmor type is Localhost", extra())]
        : [];
    case "RuntimeDefault":
    case "Unconfined":
      return fieldIsSet(input, "localhostProfile")
        ? [invalid(at, profile, "can only be set when AppArmor type is Localhost", extra())]
        : [];
    default:
      return [notSupported(type, d.value, profileTypes, extra())];
  }
};

// ---------------------------------------------------------------------------
// autoscaling/v2 (pkg/apis/autoscaling/validation)

/**
 * An HPA's metric: validateMetricSpec, ported with the autoscaler's other rules (builtins/validation/autoscaling.ts,
 * which converts an autoscaling/v1 object's metrics first), reports its type and source in the server's words.
 */
const metricSource: Wording = () => [];

/**
 * An HPA's status.currentMetrics: the API server resets status on create and
 * does not validate its metrics on a status update
 * (ValidateHorizontalPodAutoscalerStatusUpdate), so nothing is reported.
 */
const metricStatus: Wording = () => [];

/**
 * A MutatingAdmissionPolicy's mutation: admissionregistration's validateMutation, ported with the policy's other
 * rules (builtins/validation/mutating-policy.ts), reports its patchType union in the server's words.
 */
const mutation: Wording = () => [];

/** Wording keys, as set in `Union.wording` by the built-in registry. */
export const wordings: Readonly<Record<string, Wording>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, Wording>, {
    deploymentStrategy,
    deviceRequest,
    daemonSetUpdateStrategy,
    statefulSetUpdateStrategy,
    handler,
    volumeSource,
    persistentVolumeSource,
    envVar,
    envVarSource,
    envFromSource,
    ingressBackend,
    seccompProfile,
    appArmorProfile,
    metricSource,
    metricStatus,
    mutation,
    flowSchemaSubject,
    limitResponse,
    priorityLevelConfigurationSpec,
  }),
);
