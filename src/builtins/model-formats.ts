/**
 * The formats kubernetes-models' generated validators call, standing in for
 * `@kubernetes-models/validate` (every bundler aliases that name here). The
 * original registers all of ajv-formats, whose URI support requires Node's
 * deprecated `punycode` at run time: a warning on every CLI run and a failure
 * on Workers. The validators use six formats; these follow Kubernetes.
 */

import { GoError, parseQuantity, parseRFC3339 } from "../go/index.js";

const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const formats = {
  int32: { type: "number", validate: (v: number) => Number.isInteger(v) && v >= int32.min && v <= int32.max },
  int64: { type: "number", validate: (v: number) => Number.isSafeInteger(v) },
  double: { type: "number", validate: (v: number) => typeof v === "number" },
  byte: { type: "string", validate: (v: string) => base64.test(v) },
  // resource.Quantity decodes with ParseQuantity.
  quantity: { type: "string", validate: (v: string) => !(parseQuantity(v) instanceof GoError) },
  // metav1.Time decodes with time.Parse(time.RFC3339).
  "date-time": { type: "string", validate: (v: string) => !(parseRFC3339(v) instanceof GoError) },
};
