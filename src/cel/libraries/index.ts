/**
 * Every function a rule can call, declared once (declaration.ts): the CEL
 * standard library, cel-go's strings extension, and the Kubernetes libraries
 * the API server enables (lists and sets, regex, URL, quantity, IP and CIDR,
 * named formats, optional types). Both sides derive from the declarations:
 * the checker's overload table and the runtime's functions.
 */
import type { CelFunc } from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";
import { type FunctionTable, functionTable } from "../language/checker.js";
import type { Declaration } from "./declaration.js";
import { FORMATS } from "./format.js";
import { IPS } from "./ip.js";
import { LISTS } from "./lists.js";
import { OPTIONALS } from "./optional.js";
import { QUANTITIES } from "./quantity.js";
import { REGEX } from "./regex.js";
import { STANDARD } from "./standard.js";
import { STRINGS } from "./strings.js";
import { URLS } from "./url.js";

export type { Declaration } from "./declaration.js";

export const DECLARATIONS: readonly Declaration[] = [
  ...STANDARD,
  ...STRINGS,
  ...LISTS,
  ...REGEX,
  ...URLS,
  ...QUANTITIES,
  ...IPS,
  ...FORMATS,
  ...OPTIONALS,
];

/** The overloads the checker resolves calls against. */
export const FUNCTIONS: FunctionTable = functionTable(...DECLARATIONS.map((d) => d.overloads));

/**
 * The runtime's functions, before metering: @bufbuild/cel's strings extension
 * (its standard library comes with every environment), then each function
 * implemented here, which replaces @bufbuild/cel's of the same runtime signature.
 */
export const RUNTIME_FUNCS: readonly CelFunc[] = [...strings, ...DECLARATIONS.flatMap((d) => d.runtime ?? [])];
