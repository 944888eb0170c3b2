/**
 * What the server's thread and a signing thread say to each other. Keys travel once per thread: a message names
 * the CAFs and identities its jobs use by number and carries only those the thread has not been sent yet
 * (structured clone copies `KeyObject`s; a copy per document would cost more than the signature). Errors travel
 * as data and become core's error classes again on arrival, so callers branch on them as before.
 */
import type { Caf } from "@timbre/core/caf";
import { ERROR_CODES, TimbreError, ValidationError, type ErrorCode, type ValidationIssue } from "@timbre/core/errors";
import type { EnvelopeOptions, SignedDte, SignedDteOptions } from "@timbre/core/xml";

type SigningIdentity = SignedDteOptions["identity"];

export interface WireJob {
  input: SignedDteOptions["input"];
  totals: SignedDteOptions["totals"];
  timestamp: string;
  caf: number;
  identity: number;
}

/** An envelope to build and sign (`buildEnvelope`), its identity by number. */
export type WireEnvelope = Omit<EnvelopeOptions, "identity"> & { identity: number };

export interface SignRequest {
  seq: number;
  cafs: Array<[number, Caf]>;
  identities: Array<[number, SigningIdentity]>;
  jobs: WireJob[];
  envelope?: WireEnvelope;
}

export interface WireError {
  name: string;
  message: string;
  code?: string;
  details?: Record<string, unknown>;
  issues?: ValidationIssue[];
}

export type WireResult = { ok: true; signed: SignedDte } | { ok: false; error: WireError };

export type WireEnvelopeResult = { ok: true; xml: string } | { ok: false; error: WireError };

export interface SignResponse {
  seq: number;
  results: WireResult[];
  envelope?: WireEnvelopeResult;
}

export function toWireError(error: unknown): WireError {
  if (error instanceof ValidationError) return { name: error.name, message: error.message, code: error.code, issues: error.issues };
  if (error instanceof TimbreError) return { name: error.name, message: error.message, code: error.code, details: error.details };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

const isErrorCode = (code: string | undefined): code is ErrorCode => ERROR_CODES.some((c) => c === code);

export function fromWireError(error: WireError): Error {
  if (error.issues !== undefined) return new ValidationError(error.issues);
  if (isErrorCode(error.code)) return new TimbreError(error.code, error.message, error.details === undefined ? {} : { details: error.details });
  const plain = new Error(error.message);
  plain.name = error.name;
  return plain;
}
