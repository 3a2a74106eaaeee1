/**
 * DRA's device selectors (`selectors[].cel.expression` of a DeviceClass, a ResourceClaim and a
 * ResourceClaimTemplate), compiled as the API server compiles a new one
 * (k8s.io/dynamic-resource-allocation/cel compile.go, CompileCELExpression): the base environment of the
 * server's compatibility version, `cel.bind` and semver, and one variable, `device`, of the object type
 * `kubernetes.DRADevice`: `driver` (string), `attributes` (domain → id → any attribute value) and `capacity`
 * (domain → id → quantity), and `allowMultipleAllocations` (bool) where DRAConsumableCapacity is on. The result
 * must be a bool or of the unknown type. Never run, and the cost estimate is not made.
 */
import { celLibraries } from "./environment.js";
import { Checker, formatIssues } from "./language/checker.js";
import { BOOL, type CelT, DYN, mapOf, opaque, STRING, typeName } from "./language/types.js";
import { parseOrExplain } from "./rules.js";

const field = (raw: string, type: CelT) => [raw, { raw, type }] as const;

/**
 * An attribute's value is apiserver's AnyType (google.protobuf.Any), which cel-go's checker treats as dyn;
 * kunion has no such type and types it dyn.
 */
const ATTRIBUTES = mapOf(STRING, mapOf(STRING, DYN));
const CAPACITY = mapOf(STRING, mapOf(STRING, opaque("kubernetes.Quantity")));

function deviceType(consumableCapacity: boolean): CelT {
  const fields = [field("driver", STRING), field("attributes", ATTRIBUTES), field("capacity", CAPACITY)];
  if (consumableCapacity) fields.push(field("allowMultipleAllocations", BOOL));
  return { k: "object", name: "kubernetes.DRADevice", fields: new Map(fields) };
}

/** Whether a type says anything of dyn: the server's Any (an attribute) is dyn to kunion, and its name differs. */
function mentionsDyn(t: CelT): boolean {
  switch (t.k) {
    case "dyn":
      return true;
    case "list":
      return mentionsDyn(t.elem);
    case "map":
      return mentionsDyn(t.key) || mentionsDyn(t.val);
    case "opaque":
      return t.params.some(mentionsDyn);
    case "type":
      return t.of !== undefined && mentionsDyn(t.of);
    default:
      return false;
  }
}

/** What a selector's compilation settles on, besides the text: the environment's release and features. */
export interface DraSelectorOptions {
  /** The Kubernetes minor whose CEL libraries a new expression may use (the server's compatibility version). */
  libraries: number;
  /** DRAConsumableCapacity: `device.allowMultipleAllocations` declared. */
  consumableCapacity: boolean;
}

/**
 * The detail of the API server's Invalid for a device selector that does not compile (a syntax error, an
 * undeclared name, an unknown field of `device`, a call no overload takes), or whose result is neither a bool
 * nor of the unknown type; undefined when it compiles. A result kunion types dyn is let through: the server
 * refuses a dyn result but accepts an attribute's (Any), and kunion does not tell them apart.
 */
export function draSelectorError(text: string, options: DraSelectorOptions): string | undefined {
  const libraries = celLibraries(options.libraries);
  const read = parseOrExplain(text, libraries.macros);
  if ("error" in read) return read.error;
  const checker = new Checker(libraries.functions, read.parsed.positions);
  let type: CelT;
  try {
    type = checker.check(read.parsed.expr, new Map([["device", deviceType(options.consumableCapacity)]]));
  } catch (e) {
    return `compilation failed: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (checker.issues.length > 0) return `compilation failed: ${formatIssues(text, checker.issues)}`;
  if (type.k !== "bool" && !mentionsDyn(type))
    return `must evaluate to bool or the unknown type, not ${typeName(type)}`;
  return undefined;
}
