/** A field of a Go type that some release's OpenAPI marks required (required.ts says what the lists hold). */
export interface NotEnforced {
  /** The Go type's name, without group or version: `LimitRangeSpec`. */
  type: string;
  field: string;
  /** The Go function whose validation accepts the field absent (or defaults it first), or reports it itself. */
  source: string;
}

/** `fields` of the Go type `type`, for one `source`. */
export const fieldsOf = (type: string, fields: readonly string[], source: string): NotEnforced[] =>
  fields.map((field) => ({ type, field, source }));
