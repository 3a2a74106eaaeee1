/**
 * The static cost of a library call, as the API server estimates it when a CRD
 * is written: the estimate cel-go's checker (checker/cost.go `functionCost`)
 * takes from the overload estimators the extension libraries register (ext/lists.go
 * at version 3 and ext/sets.go), then from Kubernetes' `CostEstimator.EstimateCallCost`
 * (apiserver pkg/cel/library/cost.go). Where neither gives one, cel-go's own
 * switch on the standard overloads decides, which is not here.
 *
 * This is the twin of cost.ts (what a call is charged when it runs): the same
 * functions, priced from the ranges of sizes the checker knows rather than from
 * values. The cost is the call's alone; cel-go adds its arguments' costs.
 *
 * Numbers are Go's uint64 as doubles: every sum, product and factor saturates
 * at MAX, as the newer cel-go's arithmetic does (common/cost `SafeAdd`,
 * `SafeMultiply`, `SafeMultiplyByFactor`); above 2^53 they are approximate.
 */
import { OPAQUE_NAMES } from "../language/signatures.js";
import { type CelT, typeKey } from "../language/types.js";
import { type AstNodeInfo, type CallEstimate, MAX, type Range } from "./estimate-types.js";

// cel-go common/cost.go
/** The cost of traversing one character of a string or byte of bytes. */
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
/** The cost of a regex per character of its pattern (a guess of one expression per four characters). */
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;
/** What creating a list costs before its items. */
export const LIST_CREATE_BASE_COST = 10;
/** What creating a struct (a message) costs before its fields. */
export const STRUCT_CREATE_BASE_COST = 40;

/** cel-go ext's `callCost`: the dispatch of an O(1) call. */
const CALL_COST = 1;

// apiserver pkg/cel/library/cost.go and pkg/cel/limits.go
/** An authorization check, set so that an expression can make only two. */
const AUTHZ_CHECK_COST = 350_000;
/** The longest named format (`MaxFormatSize`): what comparing two formats traverses at most. */
const MAX_FORMAT_SIZE = 64;
/** The longest pattern of a named format (`MaxNameFormatRegexSize`): `validate` cannot see which one runs. */
const MAX_NAME_FORMAT_REGEX_SIZE = 128;
/** The shortest repeatable selector requirement that allocates is two characters (`k,`). */
const SELECTOR_LENGTH_TO_REQUIREMENT_COUNT = 0.5;
/** Each selector requirement allocates a struct and a list of values. */
const COST_PER_REQUIREMENT = LIST_CREATE_BASE_COST + STRUCT_CREATE_BASE_COST;
/** The bytes of an IP address, v4 or v6, which the CIDR containment checks compare. */
const IP_ADDRESS_BYTES: Range = { min: 4, max: 16 };

/** A size nothing is known of (cel-go's `UnknownSizeEstimate`). */
export const UNKNOWN_SIZE: Range = { min: 0, max: MAX };

/** A range of one value (cel-go's `FixedSizeEstimate`, `FixedCostEstimate`). */
export const fixedRange = (n: number): Range => ({ min: n, max: n });

/** `x + y`, saturating at MAX (cel-go `SafeAdd`). */
export const saturatingAdd = (x: number, y: number): number => Math.min(x + y, MAX);

/** `x × y`, saturating at MAX (cel-go `SafeMultiply`). */
export const saturatingMultiply = (x: number, y: number): number => Math.min(x * y, MAX);

/**
 * `x × factor` rounded up, saturating at MAX, 0 when not positive (cel-go
 * `SafeMultiplyByFactor`): every cost factor of the sources rounds up.
 */
export function multiplyByFactor(x: number, factor: number): number {
  const product = Math.ceil(x * factor);
  return product > 0 ? Math.min(product, MAX) : 0;
}

/** Range sum (cel-go `SizeEstimate.Add`, `CostEstimate.Add`). */
export const addRanges = (a: Range, b: Range): Range => ({
  min: saturatingAdd(a.min, b.min),
  max: saturatingAdd(a.max, b.max),
});

/** Range product, bound by bound (cel-go `Multiply`, `MultiplyByCost`). */
export const multiplyRanges = (a: Range, b: Range): Range => ({
  min: saturatingMultiply(a.min, b.min),
  max: saturatingMultiply(a.max, b.max),
});

/** Each bound times a cost factor, rounded up (cel-go `MultiplyByCostFactor`). */
export const multiplyRangeByFactor = (r: Range, factor: number): Range => ({
  min: multiplyByFactor(r.min, factor),
  max: multiplyByFactor(r.max, factor),
});

/** The range covering both (cel-go `Union`). */
export const unionRanges = (a: Range, b: Range): Range => ({
  min: Math.min(a.min, b.min),
  max: Math.max(a.max, b.max),
});

/**
 * The value of an int literal node, if the node is one. The extensions' estimators
 * read literal arguments (a slice's bounds, a range's size, a flatten's depth, a
 * split's limit), which an AstNodeInfo does not carry.
 */
export type IntLiteralOf = (node: AstNodeInfo) => bigint | undefined;

const NO_LITERALS: IntLiteralOf = () => undefined;

/** A CEL int as Go's `uint64(i)`: a negative one wraps to 2^64 + i. */
const asGoUint64 = (i: bigint): number => (i < 0n ? MAX + Number(i) : Math.min(Number(i), MAX));

/** A non-negative int literal's value, 0 for a negative one, else `otherwise` (cel-go ext `nodeAsUintValue`). */
function literalAsUint(node: AstNodeInfo, intLiteralOf: IntLiteralOf, otherwise: number): number {
  const value = intLiteralOf(node);
  if (value === undefined) return otherwise;
  return value < 0n ? 0 : Math.min(Number(value), MAX);
}

/** Go's uint64 `x - y`, which wraps below zero. */
const wrappingSubtract = (x: number, y: number): number => (x >= y ? x - y : MAX - (y - x));

/** A type's first parameter (cel-go `Type.Parameters()[0]`): a list's items, a map's keys, an optional's value. */
function firstTypeParameter(t: CelT): CelT | undefined {
  switch (t.k) {
    case "list":
      return t.elem;
    case "map":
      return t.key;
    case "opaque":
      return t.params[0];
    case "type":
      return t.of;
    default:
      return undefined;
  }
}

/**
 * The node of a list's items, so that the size estimator can look up the
 * items' maxLength under `@items`, or go by their type when the list has no
 * path (cost.go `listElementNode`); undefined when the type has no parameter.
 */
function itemsNode(list: AstNodeInfo): AstNodeInfo | undefined {
  const type = firstTypeParameter(list.type);
  if (type === undefined) return undefined;
  return { path: list.path === undefined ? undefined : [...list.path, "@items"], type, computedSize: undefined };
}

const isStringOrBytes = (t: CelT): boolean => t.k === "string" || t.k === "bytes";

/** A type the checker cannot tell apart from others, so that a call matches several overloads. */
const isUndecided = (t: CelT): boolean => t.k === "dyn" || t.k === "var";

/** The estimate covering both overloads' (cel-go `costCall`, which unions over a call's overload IDs). */
function unionEstimates(a: CallEstimate, b: CallEstimate): CallEstimate {
  const cost = unionRanges(a.cost, b.cost);
  if (a.resultSize === undefined) return b.resultSize === undefined ? { cost } : { cost, resultSize: b.resultSize };
  return { cost, resultSize: b.resultSize === undefined ? a.resultSize : unionRanges(a.resultSize, b.resultSize) };
}

const ONE: CallEstimate = { cost: fixedRange(1) };

/** A string scan: the size times the traversal factor. */
const traversal = (size: Range): Range => multiplyRangeByFactor(size, STRING_TRAVERSAL_COST_FACTOR);

/**
 * The estimate of a call of `fn` (the function as the checker names it) with
 * `target` (undefined for a global call) and `args`, from the libraries' own
 * estimators: the extensions' by overload first, then Kubernetes'. Undefined
 * when neither gives one, and cel-go's standard switch applies.
 *
 * `sizeOf` is cel-go's `sizeOrUnknown` (a node's computed size, else the size
 * estimator's, else UNKNOWN_SIZE); `intLiteralOf` says which arguments are int
 * literals (none when left out, as for any other argument).
 */
export function libraryCallEstimate(
  fn: string,
  target: AstNodeInfo | undefined,
  args: readonly AstNodeInfo[],
  sizeOf: (node: AstNodeInfo) => Range,
  intLiteralOf: IntLiteralOf = NO_LITERALS,
): CallEstimate | undefined {
  return (
    extensionEstimate(fn, target, args, sizeOf, intLiteralOf) ??
    kubernetesEstimate(fn, target, args, sizeOf, intLiteralOf)
  );
}

/**
 * cel-go's overload estimators: ext/lists.go (version 3, the lists extension
 * of Kubernetes 1.34 on) and ext/sets.go (unversioned in Kubernetes, so the
 * newest's).
 */
function extensionEstimate(
  fn: string,
  target: AstNodeInfo | undefined,
  args: readonly AstNodeInfo[],
  sizeOf: (node: AstNodeInfo) => Range,
  intLiteralOf: IntLiteralOf,
): CallEstimate | undefined {
  switch (fn) {
    // ext/sets.go estimateSetsCost: m × n comparisons, twice for equivalence
    case "sets.contains":
    case "sets.intersects":
    case "sets.equivalent": {
      if (args.length !== 2) return undefined;
      const [a, b] = args as [AstNodeInfo, AstNodeInfo];
      const factor = fn === "sets.equivalent" ? 2 : 1;
      return {
        cost: addRanges(multiplyRangeByFactor(multiplyRanges(sizeOf(a), sizeOf(b)), factor), fixedRange(CALL_COST)),
      };
    }
    // ext/lists.go estimateListSlice: the slice's length, from literal bounds or the list's largest size
    case "slice": {
      if (target === undefined || args.length !== 2) return undefined;
      const [startNode, endNode] = args as [AstNodeInfo, AstNodeInfo];
      const start = literalAsUint(startNode, intLiteralOf, 0);
      const end = literalAsUint(endNode, intLiteralOf, sizeOf(target).max);
      return allocatingListCall(1, fixedRange(wrappingSubtract(end, start)));
    }
    // estimateListsRange: a literal size, else any
    case "lists.range": {
      if (target !== undefined || args.length !== 1) return undefined;
      return allocatingListCall(1, fixedRange(literalAsUint(args[0] as AstNodeInfo, intLiteralOf, MAX)));
    }
    // estimateListFlatten: the list's size times the depth (1 by default, a literal, else any)
    case "flatten": {
      if (target === undefined || args.length > 1) return undefined;
      const depth = args.length === 1 ? literalAsUint(args[0] as AstNodeInfo, intLiteralOf, MAX) : 1;
      return allocatingListCall(depth, sizeOf(target));
    }
    // estimateListReverse; a string's reverse (strings extension) has no estimator
    case "reverse": {
      if (target === undefined || args.length !== 0 || target.type.k === "string") return undefined;
      return allocatingListCall(1, sizeOf(target));
    }
    // estimateListDistinct: n² comparisons, twice
    case "distinct": {
      if (target === undefined || args.length !== 0) return undefined;
      const size = sizeOf(target);
      return allocatingListCall(2, multiplyRanges(size, size));
    }
    // estimateListSort: n² comparisons of the list's items
    case "sort": {
      if (target === undefined || args.length !== 0) return undefined;
      return sortEstimate(sizeOf(target), firstTypeParameter(target.type));
    }
    // estimateListSortBy: n² comparisons of the keys (the argument)
    case "@sortByAssociatedKeys": {
      if (target === undefined || args.length !== 1) return undefined;
      const keys = args[0] as AstNodeInfo;
      return sortEstimate(sizeOf(keys), firstTypeParameter(keys.type));
    }
    default:
      return undefined;
  }
}

/**
 * A call building a list of `listSize`: the size times `costFactor`, the
 * dispatch and the list's creation; the result is `listSize` (ext/lists.go
 * `estimateAllocatingListCall`: for distinct and sort that is n², as the source has it).
 */
function allocatingListCall(costFactor: number, listSize: Range): CallEstimate {
  const cost = addRanges(multiplyRangeByFactor(listSize, costFactor), fixedRange(CALL_COST + LIST_CREATE_BASE_COST));
  return { cost, resultSize: listSize };
}

/**
 * `estimateListSortCost` for keys of `keyType`: factor 2, plus a traversal
 * for strings and bytes. The overload is picked by the keys' type: when that
 * is dyn, every overload matches and the estimate covers them all.
 */
function sortEstimate(keysSize: Range, keyType: CelT | undefined): CallEstimate {
  const comparisons = multiplyRanges(keysSize, keysSize);
  const scalar = allocatingListCall(2, comparisons);
  const stringLike = allocatingListCall(2 + STRING_TRAVERSAL_COST_FACTOR, comparisons);
  if (keyType === undefined || isUndecided(keyType)) return unionEstimates(scalar, stringLike);
  return isStringOrBytes(keyType) ? stringLike : scalar;
}

/** The Kubernetes types whose equality costs a traversal, as kunion's signatures name them. */
const URL_TYPE = OPAQUE_NAMES.URL;
const FORMAT_TYPE = OPAQUE_NAMES.Format;

/** The types whose equality cost.go prices at 1: IP, CIDR, quantity, semver and the authorizer's. */
const UNIT_EQUALITY_TYPES = new Set(
  ["IP", "CIDR", "Quantity", "Semver", "Authorizer", "PathCheck", "GroupCheck", "ResourceCheck", "Decision"].map(
    (n) => OPAQUE_NAMES[n] as string,
  ),
);

/** apiserver pkg/cel/library/cost.go `EstimateCallCost`, by function name. */
function kubernetesEstimate(
  fn: string,
  target: AstNodeInfo | undefined,
  args: readonly AstNodeInfo[],
  sizeOf: (node: AstNodeInfo) => Range,
  intLiteralOf: IntLiteralOf,
): CallEstimate | undefined {
  const [arg0, arg1] = args;
  switch (fn) {
    // authorizer: a check is fixed, the builders and accessors nominal
    case "check":
      return { cost: fixedRange(AUTHZ_CHECK_COST) };
    case "serviceAccount":
    case "path":
    case "group":
    case "resource":
    case "subresource":
    case "namespace":
    case "name":
    case "allowed":
    case "reason":
    case "error":
    case "errored":
      return ONE;
    case "fieldSelector":
    case "labelSelector":
      return args.length === 1 ? { cost: selectorCost(sizeOf(arg0 as AstNodeInfo)) } : undefined;
    // lists library (and the strings extension's indexOf on a string): one comparison an item
    case "isSorted":
    case "sum":
    case "max":
    case "min":
    case "indexOf":
    case "lastIndexOf":
      return target === undefined ? undefined : { cost: comparisonsCost(target, sizeOf) };
    case "url":
    case "jsonpatch.escapeKey": {
      if (args.length !== 1) return undefined;
      const size = sizeOf(arg0 as AstNodeInfo);
      return { cost: traversal(size), resultSize: size };
    }
    // strings extension: one traversal, a result no longer than the string
    case "lowerAscii":
    case "upperAscii":
    case "substring":
    case "trim": {
      if (target === undefined) return undefined;
      const size = sizeOf(target);
      return { cost: traversal(size), resultSize: size };
    }
    case "replace":
      if (target === undefined || arg0 === undefined || arg1 === undefined) return undefined;
      return replaceEstimate(sizeOf(target), sizeOf(arg0), sizeOf(arg1));
    case "split": {
      if (target === undefined) return undefined;
      const size = sizeOf(target);
      // at most one item a character (a "" separator), or the literal limit
      const limit = arg1 === undefined ? undefined : intLiteralOf(arg1);
      const most = limit === undefined ? size.max : asGoUint64(limit);
      return { cost: multiplyRangeByFactor(size, 2 * STRING_TRAVERSAL_COST_FACTOR), resultSize: { min: 0, max: most } };
    }
    case "join":
      return target === undefined ? undefined : joinEstimate(target, arg0, sizeOf);
    // regex library: the string (plus one, so that an empty one still costs) times the pattern
    case "find":
    case "findAll": {
      if (target === undefined || arg0 === undefined) return undefined;
      const size = sizeOf(target);
      const stringCost = traversal(addRanges(size, fixedRange(1)));
      const regexCost = multiplyRangeByFactor(sizeOf(arg0), REGEX_STRING_LENGTH_COST_FACTOR);
      return { cost: multiplyRanges(stringCost, regexCost), resultSize: { min: 0, max: size.max } };
    }
    // parsing a string is one traversal of it
    case "cidr":
    case "isIP":
    case "isCIDR":
    case "quantity":
    case "isQuantity":
    case "semver":
    case "isSemver":
      return arg0 === undefined ? undefined : { cost: traversal(sizeOf(arg0)) };
    case "ip":
      // ip(string) parses; a CIDR's ip() reads a field
      if (arg0 !== undefined) return { cost: traversal(sizeOf(arg0)) };
      return target === undefined ? undefined : ONE;
    case "ip.isCanonical":
      // parse, then compare with the original
      return arg0 === undefined
        ? undefined
        : { cost: multiplyRangeByFactor(sizeOf(arg0), 2 * STRING_TRAVERSAL_COST_FACTOR) };
    case "masked":
    case "prefixLength":
    case "family":
    case "isUnspecified":
    case "isLoopback":
    case "isLinkLocalMulticast":
    case "isLinkLocalUnicast":
    case "isGlobalUnicast":
      return ONE;
    case "containsIP":
    case "containsCIDR":
      if (target === undefined || arg0 === undefined) return undefined;
      return containsEstimate(fn, arg0, sizeOf);
    case "validate":
      // the string scanned by the longest pattern a named format may have
      if (target === undefined || arg0 === undefined) return undefined;
      return {
        cost: multiplyRangeByFactor(
          traversal(sizeOf(arg0)),
          MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR,
        ),
      };
    case "format.named":
    // quantity and semver accessors and comparisons, URL accessors
    case "sign":
    case "asInteger":
    case "isInteger":
    case "asApproximateFloat":
    case "isGreaterThan":
    case "isLessThan":
    case "compareTo":
    case "add":
    case "sub":
    case "major":
    case "minor":
    case "patch":
    case "getScheme":
    case "getHostname":
    case "getHost":
    case "getPort":
    case "getEscapedPath":
    case "getQuery":
      return ONE;
    case "_==_":
      return arg0 === undefined || arg1 === undefined || args.length !== 2 ? undefined : equalityEstimate(arg0, arg1);
    default:
      return undefined;
  }
}

/**
 * A selector's parse (`selectorCostEstimate`): a traversal, then a struct and
 * a list for each requirement it may hold, on the list of requirements.
 */
function selectorCost(length: Range): Range {
  const parse = traversal(length);
  const requirements = multiplyRangeByFactor(length, SELECTOR_LENGTH_TO_REQUIREMENT_COUNT);
  const requirementsCost = multiplyRangeByFactor(requirements, COST_PER_REQUIREMENT);
  return addRanges(addRanges(fixedRange(LIST_CREATE_BASE_COST), parse), requirementsCost);
}

/**
 * One comparison an item, plus a traversal of each item when they are strings
 * or bytes; a target with no type parameter is taken for a string, traversed once.
 */
function comparisonsCost(target: AstNodeInfo, sizeOf: (node: AstNodeInfo) => Range): Range {
  const items = itemsNode(target);
  if (items === undefined) return traversal(sizeOf(target));
  const perItem = isStringOrBytes(items.type) ? addRanges(fixedRange(1), traversal(sizeOf(items))) : fixedRange(1);
  return multiplyRanges(sizeOf(target), perItem);
}

/**
 * `replace`: a traversal and the building of the result, twice the string's
 * size; the result's size from the most and fewest replacements the sizes allow.
 */
function replaceEstimate(size: Range, toReplace: Range, replaceWith: Range): CallEstimate {
  let mostReplaced: number;
  let mostRetained = 0;
  if (toReplace.min === 0) {
    // "" is replaced before each character and at the end, and keeps every character
    mostReplaced = size.max < MAX ? size.max + 1 : size.max;
    mostRetained = size.max;
  } else if (replaceWith.max <= toReplace.min) {
    // replacing cannot lengthen the string
    mostReplaced = 0;
    mostRetained = size.max;
  } else {
    // the shortest match, as often as it fits, by the longest replacement
    mostReplaced = Math.min(Math.ceil(size.max / toReplace.min), MAX);
  }
  let fewestReplaced: number;
  let fewestRetained = 0;
  if (toReplace.max === 0) {
    fewestReplaced = size.min < MAX ? size.min + 1 : size.min;
    fewestRetained = size.min;
  } else if (toReplace.max <= replaceWith.min) {
    // replacing cannot shorten the string
    fewestReplaced = 0;
    fewestRetained = size.min;
  } else {
    // the longest match, as often as it fits, by the shortest replacement
    fewestReplaced = Math.min(Math.ceil(size.min / toReplace.max), MAX);
  }
  const resultSize = addRanges(multiplyRanges({ min: fewestReplaced, max: mostReplaced }, replaceWith), {
    min: fewestRetained,
    max: mostRetained,
  });
  return { cost: multiplyRangeByFactor(size, 2 * STRING_TRAVERSAL_COST_FACTOR), resultSize };
}

/** `join`: the items' sizes and the separators between them, traversed once. */
function joinEstimate(
  target: AstNodeInfo,
  separator: AstNodeInfo | undefined,
  sizeOf: (node: AstNodeInfo) => Range,
): CallEstimate {
  const listSize = sizeOf(target);
  const items = itemsNode(target);
  let size = items === undefined ? fixedRange(0) : multiplyRanges(listSize, sizeOf(items));
  if (separator !== undefined) {
    const separators = { min: Math.max(listSize.min - 1, 0), max: Math.max(listSize.max - 1, 0) };
    size = addRanges(size, multiplyRanges(sizeOf(separator), separators));
  }
  return { cost: traversal(size), resultSize: size };
}

/**
 * `containsIP` and `containsCIDR`: comparing two addresses' bytes (4 or 16),
 * for a CIDR also masking and comparing the prefix; a string argument is
 * parsed first. A dyn argument matches both overloads, and the estimate covers both.
 */
function containsEstimate(fn: string, other: AstNodeInfo, sizeOf: (node: AstNodeInfo) => Range): CallEstimate {
  let compare = traversal(addRanges(IP_ADDRESS_BYTES, IP_ADDRESS_BYTES));
  if (fn === "containsCIDR") compare = addRanges(addRanges(compare, traversal(IP_ADDRESS_BYTES)), fixedRange(1));
  const parsed: CallEstimate = { cost: addRanges(compare, traversal(sizeOf(other))) };
  if (other.type.k === "string") return parsed;
  if (isUndecided(other.type)) return unionEstimates({ cost: compare }, parsed);
  return { cost: compare };
}

/**
 * `==` of two values of one Kubernetes type: IP, CIDR, quantity, semver and
 * the authorizer's compare in one step; a format traverses its name (at most
 * MAX_FORMAT_SIZE); a URL its text, as long as the right side's computed size
 * (cost.go reads the right side's size for both sides), else 1.
 */
function equalityEstimate(lhs: AstNodeInfo, rhs: AstNodeInfo): CallEstimate | undefined {
  if (lhs.type.k !== "opaque" || typeKey(lhs.type) !== typeKey(rhs.type)) return undefined;
  const name = lhs.type.name;
  if (UNIT_EQUALITY_TYPES.has(name)) return ONE;
  if (name === FORMAT_TYPE) return { cost: traversal({ min: 1, max: MAX_FORMAT_SIZE }) };
  if (name === URL_TYPE) return { cost: traversal({ min: 1, max: rhs.computedSize?.max ?? 1 }) };
  return undefined;
}
