// Types for the Ajv standalone validator generated from schema.ts.
import type { ErrorObject } from "ajv";

export type AjvError = ErrorObject;
export declare const validate: ((data: unknown) => boolean) & { errors?: AjvError[] | null };
export default validate;
