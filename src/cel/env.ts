/**
 * The CEL environment of `x-kubernetes-validations`: standard library, strings
 * extension, the Kubernetes libraries, optional types; Kubernetes equality for
 * typed values (set/map lists, objects); every function metered for cost.
 * One environment for the checker (declarations) and one for evaluation.
 */
import {
  type CelEnv,
  type CelFunc,
  CelScalar,
  type CelValue,
  celEnv,
  celFunc,
  celMethod,
  listType,
} from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";
import { type FunctionTable, functionTable } from "./checker.js";
import { metered, tickFunc } from "./cost.js";
import { STANDARD, STRINGS_EXT } from "./decls.js";
import { FORMAT_DECLS, FORMAT_FUNCS } from "./lib-format.js";
import { IP_DECLS, IP_FUNCS } from "./lib-ip.js";
import { LISTS_DECLS, LISTS_FUNCS } from "./lib-lists.js";
import { OPTIONAL_DECLS, OPTIONAL_FUNCS } from "./lib-optional.js";
import { QUANTITY_DECLS, QUANTITY_FUNCS } from "./lib-quantity.js";
import { REGEX_DECLS, REGEX_FUNCS } from "./lib-regex.js";
import { STRINGS_FUNCS } from "./lib-strings.js";
import { URL_DECLS, URL_FUNCS } from "./lib-url.js";
import { celEquals, listAdd } from "./values.js";

const { DYN, BOOL, STRING } = CelScalar;
const LIST = listType(DYN);

/** Declarations the checker resolves calls against. */
export const FUNCTIONS: FunctionTable = functionTable(
  STANDARD,
  STRINGS_EXT,
  LISTS_DECLS,
  REGEX_DECLS,
  URL_DECLS,
  QUANTITY_DECLS,
  IP_DECLS,
  FORMAT_DECLS,
  OPTIONAL_DECLS,
);

/** Overrides of standard functions: Kubernetes equality and list `+`. */
const OVERRIDES: CelFunc[] = [
  celFunc("_==_", [DYN, DYN], BOOL, (a: CelValue, b: CelValue) => celEquals(a, b)),
  celFunc("_!=_", [DYN, DYN], BOOL, (a: CelValue, b: CelValue) => !celEquals(a, b)),
  celFunc("@in", [DYN, LIST], BOOL, (v: CelValue, l: Iterable<CelValue>) => {
    for (const x of l) if (celEquals(x, v)) return true;
    return false;
  }),
  celFunc("_+_", [LIST, LIST], DYN, (a: CelValue, b: CelValue) => listAdd(a, b)),
];

/** `reverse` (strings extension version 3), which @bufbuild/cel lacks. */
const EXTRA: CelFunc[] = [
  celMethod("reverse", STRING, [], STRING, function () {
    return [...this].reverse().join("");
  }),
];

function buildEnv(): CelEnv {
  const base = celEnv({
    funcs: [
      ...strings,
      ...STRINGS_FUNCS,
      ...OVERRIDES,
      ...LISTS_FUNCS,
      ...REGEX_FUNCS,
      ...URL_FUNCS,
      ...QUANTITY_FUNCS,
      ...IP_FUNCS,
      ...FORMAT_FUNCS,
      ...OPTIONAL_FUNCS,
      ...EXTRA,
    ],
  });
  const wrapped = [...base.funcs].map(metered);
  return celEnv({ funcs: [...wrapped, tickFunc()] });
}

/** The evaluation environment (metered). */
export const ENV: CelEnv = buildEnv();
