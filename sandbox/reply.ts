// What a handler answers, before it reaches the socket (so faults can still bend it).

import { stringifyJson } from "./json"

export interface Reply {
  status: number
  headers: Record<string, string>
  /** null for bodiless answers (304). */
  body: string | Buffer | null
}

export interface FieldError {
  field: string | null
  message: string
}

export function jsonReply(status: number, json: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { "Content-Type": "application/json; charset=utf-8", ...headers }, body: json }
}

export function dataReply(value: unknown, headers: Record<string, string> = {}): Reply {
  return jsonReply(200, stringifyJson(value), headers)
}

export function errorReply(
  status: number,
  code: string,
  message: string,
  requestId: string,
  details: FieldError[] | null = null,
  headers: Record<string, string> = {}
): Reply {
  return jsonReply(status, stringifyJson({ error: { code, message, request_id: requestId, details } }), headers)
}

/** 422 validation_error naming every offending parameter. */
export function validationReply(errors: FieldError[], requestId: string): Reply {
  const fields = [...new Set(errors.map((e) => e.field).filter(Boolean))].join(", ")
  return errorReply(422, "validation_error", `Invalid parameters: ${fields}`, requestId, errors)
}
