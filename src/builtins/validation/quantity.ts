/**
 * A quantity field as hand-written validation reads it: decoded as the API
 * server decodes it, then compared, signed and printed with Go's Quantity
 * methods (src/go), since its messages print quantities in canonical form.
 */
import { GoError, parseQuantity, type Quantity } from "../../go/index.js";
import type { JsonValue } from "../../value/index.js";

/** A quantity field as the API server decodes it (a string or a JSON number); undefined when it does not parse. */
export function quantityOf(v: JsonValue | undefined): Quantity | undefined {
  if (typeof v !== "string" && typeof v !== "number") return undefined;
  const q = parseQuantity(typeof v === "number" ? String(v) : v.trim());
  return q instanceof GoError ? undefined : q;
}
