// Types for the Ajv standalone validators generated from requests.ts: one per HTTP route body.
import type { AjvError } from "./validate-config.generated.js";

export type RequestValidator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };
export declare const validateValidateRequest: RequestValidator;
export declare const validateNormalizeRequest: RequestValidator;
export declare const validateConvertRequest: RequestValidator;
export declare const validateConversionReview: RequestValidator;
export declare const validateAdmissionReview: RequestValidator;
export declare const validateCrdDiffRequest: RequestValidator;
