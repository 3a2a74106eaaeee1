/**
 * A PodSpec, as core validation checks it wherever one appears (a Pod, and
 * the template of a Deployment, ReplicaSet, DaemonSet, Job, CronJob,
 * ReplicationController or PodTemplate): pkg/apis/core/validation
 * ValidatePodSpec and what it calls (ValidateVolumes, validateContainers,
 * validateInitContainers, validateContainerCommon, validateContainerPorts,
 * ValidateVolumeMounts, validateResourceRequirements, the probes and
 * handlers). Modules of their own: volume sources (volumes.ts), a container's
 * environment (env.ts), scheduling (scheduling.ts), DNS and host aliases (pod-dns.ts), security contexts
 * (security.ts), the operating system and Windows options (windows.ts), and
 * the warnings the server sends with a pod (warnings.ts).
 *
 * The enum-like fields (restartPolicy, dnsPolicy, imagePullPolicy, port
 * protocols, tolerations, …) are checked here: Kubernetes' published schemas
 * carry no enums, the API server checks them by hand. Left to others: the
 * one-of rules of volume sources, probe and lifecycle handlers, env sources,
 * seccomp and AppArmor profiles (unions/wording.ts).
 */
import type { Finding } from "../../findings/index.js";
import { trimSpace } from "../../go/index.js";
import { isDNS1123Label, isDNS1123Subdomain } from "../../names/index.js";
import { child, type FieldPath } from "../../path/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import {
  asError,
  duplicate,
  firstSetObject,
  forbidden,
  inclusiveRangeError,
  intAt,
  invalid,
  invalidEach,
  isSet,
  isValidPortName,
  isValidPortNum,
  listAt,
  nonNegativeAt,
  notFound,
  objectAt,
  objectItems,
  oneOf,
  optionalIntAt,
  portNumOrName,
  required,
  requiredIfEmpty,
  stringAt,
  stringMapAt,
  validateAnnotations,
  validateLabels,
} from "./common.js";
import { validateContainerEnv } from "./env.js";
import { validateMountDetails, validateVolumeDevices, volumeDeviceMap } from "./mounts.js";
import { validateAnnotationsMatchFields, validatePodSpecificAnnotations } from "./pod-annotations.js";
import { validateHostAliases, validatePodDNSConfig } from "./pod-dns.js";
import {
  validateHostUsers,
  validateHTTPHeaders,
  validateOverhead,
  validatePreemptionPolicy,
  validateReadinessGates,
  validateRuntimeClassName,
  validateSchedulingGates,
  validateSELinuxChangePolicy,
} from "./pod-fields.js";
import {
  podClaimNames,
  validateContainerClaims,
  validatePodLevelResources,
  validatePodResourceClaims,
  validateResizePolicy,
} from "./pod-resources.js";
import { validateContainerResources } from "./resources.js";
import { validateContainerRestart } from "./restart-rules.js";
import { validatePodScheduling, validateTolerations } from "./scheduling.js";
import { validatePodSecurityContext, validateSecurityContext } from "./security.js";
import { validateVolumeSource } from "./volumes.js";
import { validatePodOS } from "./windows.js";

/** Pod restart policies, in validateRestartPolicy's order. */
const restartPolicies = ["Always", "OnFailure", "Never"];

export interface PodSpecOptions {
  /**
   * The workload holding the template checks `restartPolicy` against its own,
   * narrower list at the same path (Jobs: OnFailure or Never; controllers:
   * Always): that finding is reported, not the pod's own as well.
   */
  workloadChecksRestartPolicy?: boolean;
  /** The release, 1.`minor`: some fields are dropped, not validated, before their feature gate is on. */
  minor: number;
  /** The spec is a Pod's, defaulted as SetDefaults_Pod defaults it, not a template's. */
  pod?: boolean;
}

/**
 * What ValidatePodTemplateSpec checks of a template's own metadata: its labels and annotations, at
 * `<template>.labels` and `<template>.annotations` (the server's paths: a PodTemplateSpec embeds its ObjectMeta).
 */
export function validateTemplateMetadata(template: JsonObject | undefined, at: FieldPath): Finding[] {
  const meta = objectAt(template, "metadata");
  const annotations = objectAt(meta, "annotations");
  return [
    ...validateLabels(stringMapAt(meta, "labels"), child(at, "labels")),
    ...validateAnnotations(annotations, child(at, "annotations")),
    ...validatePodSpecificAnnotations(annotations, objectAt(template, "spec"), child(at, "annotations")),
  ];
}

/**
 * ValidatePodTemplateSpec's rules after the template's pod spec (at `at`): its seccomp and AppArmor annotations
 * must agree with the fields (a template's are not copied into them as a Pod's are), and ephemeral containers
 * are added to running pods (the ephemeralcontainers subresource), never templated.
 */
export function templateAfterPodSpec(template: JsonObject | undefined, at: FieldPath): Finding[] {
  const spec = objectAt(template, "spec");
  const specAt = child(at, "spec");
  const annotations = objectAt(objectAt(template, "metadata"), "annotations");
  return [
    ...validateAnnotationsMatchFields(annotations, spec, specAt, { pod: false }),
    ...(listAt(spec, "ephemeralContainers").length > 0
      ? [forbidden(child(specAt, "ephemeralContainers"), "ephemeral containers not allowed in pod template", asError)]
      : []),
  ];
}

/**
 * What a Pod's spec must satisfy on create beyond a template's: validateContainersOnlyForPod, whose image an
 * admission webhook may still fill in for a template (a " " image is a placeholder some tools use), and
 * ValidatePodCreate's own rules: no ephemeral containers yet, no node while scheduling gates remain.
 */
export function validatePodCreate(spec: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  if (listAt(spec, "ephemeralContainers").length > 0)
    out.push(forbidden(child(path, "ephemeralContainers"), "cannot be set on create", asError));
  if (stringAt(spec, "nodeName") && listAt(spec, "schedulingGates").length > 0)
    out.push(forbidden(child(path, "nodeName"), "cannot be set until all schedulingGates have been cleared", asError));
  for (const list of ["containers", "initContainers"])
    for (const [i, ctr] of objectItems(spec, list)) {
      const image = stringAt(ctr, "image");
      // a leading or trailing space as strings.TrimSpace sees one
      if (image && trimSpace(image) !== image)
        out.push(
          invalid(child(path, list, i, "image"), image, "must not have leading or trailing whitespace", asError),
        );
    }
  return out;
}

/** ValidatePodSpec at `path` (`spec`, `spec.template.spec`, …). */
export function validatePodSpec(spec: JsonObject, path: FieldPath, options: PodSpecOptions): Finding[] {
  const out: Finding[] = [];
  const volumes = validateVolumes(spec, child(path, "volumes"), out);
  const claims = podClaimNames(spec);
  out.push(...validatePodResourceClaims(spec, path, options.minor));
  // A lifecycle hook may not sleep past the grace period, defaulted to 30 seconds (SetDefaults_PodSpec).
  const grace = optionalIntAt(spec, "terminationGracePeriodSeconds") ?? 30;
  const common: ContainerContext = {
    volumes,
    // A container's procMount may be Unmasked only in a user namespace of its own.
    hostUsers: getKey(spec, "hostUsers") !== false,
    claims,
    podRestartPolicy: stringAt(spec, "restartPolicy"),
    minor: options.minor,
  };
  const containers = objectItems(spec, "containers");
  const initContainers = objectItems(spec, "initContainers");

  // validateContainers: regular containers, unique among themselves; none (absent, null, []) is Required
  const containersValue = getKey(spec, "containers");
  const containersList = containersValue === undefined || containersValue === null || Array.isArray(containersValue);
  if (containersList && listAt(spec, "containers").length === 0)
    out.push(required(child(path, "containers"), "", asError));
  const names = new Set<string>();
  for (const [i, ctr] of containers) {
    const at = child(path, "containers", i);
    out.push(...validateContainerCommon(ctr, at, common), ...uniqueName(ctr, at, names, true));
    out.push(...validateProbes(ctr, at, grace, options.minor));
    out.push(...validateContainerRestart(ctr, at, "container", options));
  }
  out.push(...hostPortConflicts(containers, child(path, "containers")));

  // validateInitContainers: unique among regular and init containers.
  for (const [i, ctr] of initContainers) {
    const at = child(path, "initContainers", i);
    out.push(...validateContainerCommon(ctr, at, common), ...uniqueName(ctr, at, names, false));
    out.push(...hostPortConflicts([[i, ctr]], child(path, "initContainers")));
    out.push(...validateContainerRestart(ctr, at, "initContainer", options));
    if (stringAt(ctr, "restartPolicy") === "Always") out.push(...validateProbes(ctr, at, grace, options.minor));
    else {
      for (const key of ["lifecycle", "livenessProbe", "readinessProbe", "startupProbe"])
        if (isSet(ctr, key))
          out.push(
            forbidden(child(at, key), "may not be set for init containers without restartPolicy=Always", asError),
          );
    }
  }

  out.push(
    ...validatePodLevelResources(spec, path, {
      minor: options.minor,
      resourceIsPod: options.pod === true,
      claimNames: claims,
    }),
  );

  // validatePodHostNetworkDeps: a host port must be the container port (0 is defaulted to it).
  if (getKey(spec, "hostNetwork") === true) {
    for (const [i, ctr] of containers) {
      for (const [j, port] of objectItems(ctr, "ports")) {
        const hostPort = intAt(port, "hostPort");
        const containerPort = intAt(port, "containerPort");
        if (hostPort !== undefined && hostPort !== 0 && hostPort !== containerPort)
          out.push(
            invalid(
              child(path, "containers", i, "ports", j, "hostPort"),
              hostPort,
              "must match `containerPort` when `hostNetwork` is true",
              asError,
            ),
          );
      }
    }
  }

  if (!options.workloadChecksRestartPolicy) out.push(...oneOf(spec, "restartPolicy", path, restartPolicies));
  out.push(...oneOf(spec, "dnsPolicy", path, ["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"]));
  const deadline = optionalIntAt(spec, "activeDeadlineSeconds");
  if (deadline !== undefined && (deadline < 1 || deadline > 2147483647))
    out.push(invalid(child(path, "activeDeadlineSeconds"), deadline, inclusiveRangeError(1, 2147483647), asError));
  out.push(
    ...validatePodSecurityContext(spec, path),
    ...validateSELinuxChangePolicy(spec, path, options.minor),
    ...validatePodScheduling(spec, path),
    ...validatePodDNSConfig(spec, path, options.minor),
    ...validateReadinessGates(spec, path),
    ...validateSchedulingGates(spec, path),
    ...validatePodOS(spec, path, options.minor),
    ...validateHostUsers(spec, path, options.minor),
  );
  out.push(...validateTolerations(spec, child(path, "tolerations")));
  out.push(...validateHostAliases(spec, path, options.minor));
  // ValidateServiceAccountName and ValidateNodeName are NameIsDNSSubdomain; hostname and subdomain DNS labels.
  for (const [key, rule] of [
    ["serviceAccountName", isDNS1123Subdomain],
    ["nodeName", isDNS1123Subdomain],
    ["hostname", isDNS1123Label],
    ["subdomain", isDNS1123Label],
  ] as const) {
    const value = stringAt(spec, key);
    if (value) out.push(...invalidEach(child(path, key), value, rule(value)));
  }
  out.push(
    ...validateRuntimeClassName(spec, path),
    ...validatePreemptionPolicy(spec, child(path, "preemptionPolicy")),
    ...validateOverhead(spec, path),
  );
  return out;
}

/**
 * ValidateVolumes: names required, DNS labels and unique. Returns the names
 * a mount may refer to (a volume with a bad name is not one).
 */
function validateVolumes(spec: JsonObject, path: FieldPath, out: Finding[]): Map<string, JsonObject> {
  const volumes = new Map<string, JsonObject>();
  for (const [i, vol] of objectItems(spec, "volumes")) {
    const namePath = child(path, i, "name");
    const name = stringAt(vol, "name");
    if (name === undefined) continue;
    const errs: Finding[] = [];
    if (name === "") {
      // Absent, it is the schema's required field.
      if (Object.hasOwn(vol, "name")) errs.push(required(namePath, "", asError));
    } else errs.push(...invalidEach(namePath, name, isDNS1123Label(name)));
    if (volumes.has(name)) errs.push(duplicate(namePath, name));
    // A volume whose source is invalid is no volume a mount may name, as in the API server.
    errs.push(...validateVolumeSource(vol, child(path, i)));
    if (errs.length === 0 && name !== "") volumes.set(name, vol);
    out.push(...errs);
  }
  return volumes;
}

/** validateContainerCommon: what every kind of container must satisfy. */
/** What every container of a pod spec is checked against. */
interface ContainerContext {
  /** The volumes a mount may refer to, by name. */
  volumes: ReadonlyMap<string, JsonObject>;
  /** Whether the pod runs in the host's user namespace (`hostUsers` unset or true). */
  hostUsers: boolean;
  /** The names of the pod's resource claims, which a container's may name. */
  claims: ReadonlySet<string>;
  podRestartPolicy: string | undefined;
  minor: number;
}

function validateContainerCommon(ctr: JsonObject, path: FieldPath, context: ContainerContext): Finding[] {
  const { volumes, hostUsers, claims, podRestartPolicy, minor } = context;
  const out: Finding[] = [];
  const name = stringAt(ctr, "name");
  if (name === "") out.push(...requiredIfEmpty(ctr, "name", path));
  else if (name !== undefined) out.push(...invalidEach(child(path, "name"), name, isDNS1123Label(name)));
  // The image is required of every container, in pod templates too (the OpenAPI schema does not say so).
  if (stringAt(ctr, "image") === "") out.push(required(child(path, "image"), "", asError));
  out.push(...oneOf(ctr, "terminationMessagePolicy", path, ["File", "FallbackToLogsOnError"]));
  out.push(...validateContainerPorts(ctr, child(path, "ports")));
  out.push(...validateContainerEnv(ctr, path));
  out.push(...validateVolumeMounts(ctr, child(path, "volumeMounts"), volumes));
  out.push(...validateVolumeDevices(ctr, child(path, "volumeDevices"), volumes));
  out.push(...oneOf(ctr, "imagePullPolicy", path, ["Always", "IfNotPresent", "Never"]));
  const resources = objectAt(ctr, "resources");
  if (resources !== undefined) out.push(...validateContainerResources(resources, child(path, "resources")));
  out.push(
    ...validateContainerClaims(resources, child(path, "resources"), claims, minor),
    ...validateResizePolicy(ctr, path, podRestartPolicy, minor),
  );
  const securityContext = objectAt(ctr, "securityContext");
  if (securityContext !== undefined)
    out.push(...validateSecurityContext(securityContext, child(path, "securityContext"), hostUsers));
  return out;
}

/** validateContainerPorts. */
function validateContainerPorts(ctr: JsonObject, path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const names = new Set<string>();
  for (const [i, port] of objectItems(ctr, "ports")) {
    const at = child(path, i);
    const name = stringAt(port, "name");
    if (name !== undefined && name !== "") {
      const errs = isValidPortName(name);
      if (errs.length > 0) out.push(...invalidEach(child(at, "name"), name, errs));
      else if (names.has(name)) out.push(duplicate(child(at, "name"), name));
      else names.add(name);
    }
    const containerPort = intAt(port, "containerPort");
    if (containerPort === 0) {
      if (Object.hasOwn(port, "containerPort")) out.push(required(child(at, "containerPort"), "", asError));
    } else if (containerPort !== undefined)
      out.push(...invalidEach(child(at, "containerPort"), containerPort, isValidPortNum(containerPort)));
    const hostPort = intAt(port, "hostPort");
    if (hostPort !== undefined && hostPort !== 0)
      out.push(...invalidEach(child(at, "hostPort"), hostPort, isValidPortNum(hostPort)));
    out.push(...oneOf(port, "protocol", at, portProtocols));
  }
  return out;
}

/** supportedPortProtocols, as sets.List prints it. */
export const portProtocols = ["SCTP", "TCP", "UDP"];

/** ValidateVolumeMounts: each mount names a declared volume, mount paths are unique. */
function validateVolumeMounts(ctr: JsonObject, path: FieldPath, volumes: ReadonlyMap<string, JsonObject>): Finding[] {
  const out: Finding[] = [];
  const mountPoints = new Set<string>();
  const devices = volumeDeviceMap(ctr);
  for (const [i, mount] of objectItems(ctr, "volumeMounts")) {
    const at = child(path, i);
    const name = stringAt(mount, "name");
    if (name === undefined) continue;
    out.push(...requiredIfEmpty(mount, "name", at));
    if (!volumes.has(name)) out.push(notFound(child(at, "name"), name));
    const mountPath = stringAt(mount, "mountPath");
    if (mountPath === undefined) continue;
    out.push(...requiredIfEmpty(mount, "mountPath", at));
    if (mountPoints.has(mountPath)) out.push(invalid(child(at, "mountPath"), mountPath, "must be unique", asError));
    mountPoints.add(mountPath);
    out.push(...validateMountDetails(ctr, mount, path, i, devices));
  }
  return out;
}

/**
 * validateLivenessProbe, validateReadinessProbe, validateStartupProbe and the lifecycle hooks of a container, whose
 * pod gives its containers `grace` seconds to stop.
 */
function validateProbes(ctr: JsonObject, path: FieldPath, grace: number, minor: number): Finding[] {
  const out: Finding[] = [];
  for (const key of ["livenessProbe", "readinessProbe", "startupProbe"]) {
    const probe = objectAt(ctr, key);
    if (probe === undefined) continue;
    const at = child(path, key);
    out.push(...validateHandler(probe, at, grace, minor));
    for (const counter of [
      "initialDelaySeconds",
      "timeoutSeconds",
      "periodSeconds",
      "successThreshold",
      "failureThreshold",
    ])
      out.push(...nonNegativeAt(probe, counter, at));
    const probeGrace = optionalIntAt(probe, "terminationGracePeriodSeconds");
    if (probeGrace !== undefined && probeGrace <= 0)
      out.push(invalid(child(at, "terminationGracePeriodSeconds"), probeGrace, "must be greater than 0", asError));
    // successThreshold defaults to 1; liveness and startup probes allow nothing else.
    const success = optionalIntAt(probe, "successThreshold");
    if (key !== "readinessProbe" && success !== undefined && success !== 1 && success >= 0)
      out.push(invalid(child(at, "successThreshold"), success, "must be 1", asError));
    if (key === "readinessProbe" && isSet(probe, "terminationGracePeriodSeconds"))
      out.push(
        invalid(
          child(at, "terminationGracePeriodSeconds"),
          getKey(probe, "terminationGracePeriodSeconds"),
          "must not be set for readinessProbes",
          asError,
        ),
      );
  }
  const lifecycle = objectAt(ctr, "lifecycle");
  for (const hook of ["postStart", "preStop"]) {
    const handler = objectAt(lifecycle, hook);
    if (handler !== undefined) out.push(...validateHandler(handler, child(path, "lifecycle", hook), grace, minor));
  }
  return out;
}

/**
 * A container's name against the names taken so far: Duplicate when taken,
 * else taken. validateInitContainers takes only a non-empty name (an empty
 * one is Required elsewhere); validateContainers takes any.
 */
function uniqueName(ctr: JsonObject, at: FieldPath, names: Set<string>, takeEmpty: boolean): Finding[] {
  const name = stringAt(ctr, "name");
  if (name === undefined) return [];
  if (names.has(name)) return [duplicate(child(at, "name"), name)];
  if (takeEmpty || name !== "") names.add(name);
  return [];
}

/**
 * validateHandler checks the first handler set, in its order (the others
 * are the union's "may not specify more than 1 handler type").
 */
function validateHandler(handler: JsonObject, path: FieldPath, grace: number, minor: number): Finding[] {
  const first = firstSetObject(handler, ["exec", "httpGet", "tcpSocket", "grpc", "sleep"]);
  if (first === undefined) return [];
  const action = first.value;
  const at = child(path, first.field);
  switch (first.field) {
    case "exec":
      return listAt(action, "command").length === 0 ? [required(child(at, "command"), "", asError)] : [];
    case "sleep": {
      // validateSleepAction: PodLifecycleSleepActionAllowZero (alpha and off in 1.32, on from 1.33) lets 0 pass.
      // An absent `seconds` is Go's 0.
      const seconds = intAt(action, "seconds") ?? 0;
      if (minor >= 33) {
        if (seconds >= 0 && seconds <= grace) return [];
        const detail = `must be non-negative and less than terminationGracePeriodSeconds (${grace})`;
        return [invalid(at, seconds, detail, asError)];
      }
      if (seconds > 0 && seconds <= grace) return [];
      const detail = `must be greater than 0 and less than terminationGracePeriodSeconds (${grace}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`;
      return [invalid(at, seconds, detail, asError)];
    }
    case "httpGet":
      // An unset scheme is defaulted to HTTP.
      return [
        ...portNumOrName(getKey(action, "port"), child(at, "port")),
        ...oneOf(action, "scheme", at, ["HTTP", "HTTPS"]),
        ...validateHTTPHeaders(action, at),
      ];
    case "tcpSocket":
      return portNumOrName(getKey(action, "port"), child(at, "port"));
    case "grpc": {
      const port = intAt(action, "port");
      return port === undefined ? [] : invalidEach(child(at, "port"), port, isValidPortNum(port));
    }
    default:
      return [];
  }
}

/** AccumulateUniqueHostPorts: a host port is taken once per protocol and host IP. */
function hostPortConflicts(containers: readonly [number, JsonObject][], path: FieldPath): Finding[] {
  const out: Finding[] = [];
  const taken = new Set<string>();
  for (const [i, ctr] of containers) {
    for (const [j, port] of objectItems(ctr, "ports")) {
      const hostPort = intAt(port, "hostPort");
      if (hostPort === undefined || hostPort === 0) continue;
      const key = `${stringAt(port, "protocol") || "TCP"}/${stringAt(port, "hostIP") ?? ""}/${hostPort}`;
      if (taken.has(key)) out.push(duplicate(child(path, i, "ports", j, "hostPort"), key));
      else taken.add(key);
    }
  }
  return out;
}
