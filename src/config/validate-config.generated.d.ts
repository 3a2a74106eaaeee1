// Types for the Ajv standalone validator generated from schema.ts.
export interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}
export declare const validate: ((data: unknown) => boolean) & { errors?: AjvError[] | null };
export default validate;
