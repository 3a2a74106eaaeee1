/**
 * The formats kubernetes-models' generated validators call, standing in for
 * `@kubernetes-models/validate` (every bundler aliases that name here). The
 * original registers all of ajv-formats, whose URI support requires Node's
 * deprecated `punycode` at run time: a warning on every CLI run and a failure
 * on Workers. The validators use six formats; these follow Kubernetes.
 */

const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

// apimachinery ParseQuantity: a signed decimal, then a binary-SI, decimal-SI or exponent suffix.
const quantity = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]+)?$/;
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// RFC 3339, as metav1.Time decodes it.
const dateTime =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})$/;

function validDateTime(value: string): boolean {
  const m = dateTime.exec(value);
  if (!m) return false;
  const [, , month, day, hour, minute, second] = m.map(Number) as number[];
  return (
    (month as number) >= 1 &&
    (month as number) <= 12 &&
    (day as number) >= 1 &&
    (day as number) <= 31 &&
    (hour as number) <= 23 &&
    (minute as number) <= 59 &&
    (second as number) <= 60
  );
}

export const formats = {
  int32: { type: "number", validate: (v: number) => Number.isInteger(v) && v >= int32.min && v <= int32.max },
  int64: { type: "number", validate: (v: number) => Number.isSafeInteger(v) },
  double: { type: "number", validate: (v: number) => typeof v === "number" },
  byte: { type: "string", validate: (v: string) => base64.test(v) },
  quantity: { type: "string", validate: quantity },
  "date-time": { type: "string", validate: validDateTime },
};
