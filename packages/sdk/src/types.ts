import type { operations } from './generated/schema.ts';

type Ops = operations;
type JsonContent<T> = T extends { content: { 'application/json': infer B } } ? B : undefined;
type Success<R> = R[Extract<keyof R, 200 | 201 | 202 | 204>];

/** The JSON body an operation accepts. */
export type BodyOf<Id extends keyof Ops> = Ops[Id] extends { requestBody?: infer B } ? JsonContent<NonNullable<B>> : never;
/** The query parameters an operation accepts. */
export type QueryOf<Id extends keyof Ops> = Ops[Id] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** The JSON an operation answers with on success. */
export type ResponseOf<Id extends keyof Ops> = Ops[Id] extends { responses: infer R } ? JsonContent<Success<R>> : never;

export type CallOptions = {
  /** Sent as `Idempotency-Key`; with it, a write may be retried safely. */
  idempotencyKey?: string | undefined;
  signal?: AbortSignal | undefined;
  headers?: Record<string, string> | undefined;
};
