import type Koa from 'koa';
import type { Config } from '../service/config.ts';
import type { IdentityProvider } from '../service/identity.ts';
import type { Listener } from '../service/listener.ts';
import type { Logger } from '../service/logger.ts';
import type { Queue } from '../service/queue.ts';
import type { Pool } from '../storage/db.ts';
import type { Executor } from '../storage/db.ts';
import type { IdempotencyScope, StoredResponse } from '../storage/idempotency.ts';
import type { WindowCounts } from '../storage/rate-limit.ts';
import type { AgentAuth, ConsoleAuth } from './auth.ts';
import type { OperationSpec } from './openapi.ts';

/** What request handlers may use; built once per process. */
export type Services = {
  db: Pool;
  queue: Queue;
  listener: Listener;
  config: Config;
  log: Logger;
  identity: IdentityProvider;
  now: () => Date;
};

export type ApiState = {
  requestId: string;
  op?: OperationSpec;
  auth?: AgentAuth;
  /** The agent key's requests in the current rate window, counted when it was authenticated. */
  rateWindow?: WindowCounts;
  console?: ConsoleAuth;
  /** sha256 of method, path and the body's exact bytes: what an Idempotency-Key is bound to. */
  requestHash?: string;
  body: any;
  /** A large body's attachments, decoded from its bytes, until they take their placeholders' place. */
  attachmentBytes?: Map<string, Buffer>;
  query: Record<string, any>;
  /** The `include` paths asked for, checked against the operation's list (parents added). */
  include: Set<string>;
  params: Record<string, string>;
  /** Set while a request holds an Idempotency-Key claim. */
  idempotency?: {
    /** Stores the response to replay inside `tx`, the transaction of the request's effect. */
    completeIn(tx: Executor, response: StoredResponse): Promise<void>;
  };
};

export type ApiContext = Koa.ParameterizedContext<ApiState>;
export type Handler = (ctx: ApiContext) => Promise<void>;

export type Route = {
  handler: Handler;
  /** Where an Idempotency-Key is recorded when the caller is not an authenticated principal. */
  idempotencyScope?: (ctx: ApiContext, key: string) => Promise<IdempotencyScope | null>;
  /**
   * Checks run before an Idempotency-Key is claimed: a request they refuse leaves no trace, not
   * even its key, so it can be retried with the same key once fixed. Skipped when the key already
   * holds a response to replay.
   */
  precheck?: Handler;
};

/** operationId → route; every operation in the OpenAPI document has exactly one. */
export type RouteTable = Record<string, Handler | Route>;
