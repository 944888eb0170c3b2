/** Build functions throw instead of returning issues. */
import type { DocumentInput } from "../document/types.js";
import { ValidationError } from "../errors/index.js";
import { validateDocument } from "./validate-document.js";

/**
 * Throws `ValidationError` carrying every issue of `input` (build functions throw; validation returns issues).
 *
 * @example
 * assertValidDocument(input); // throws ValidationError([{ path: "items[0].nombre", reason: "charset", … }])
 */
export function assertValidDocument(input: DocumentInput): void {
  const issues = validateDocument(input);
  if (issues.length > 0) throw new ValidationError(issues);
}
