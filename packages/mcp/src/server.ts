// The MCP server: lists the tools with JSON Schemas taken from the SDK's generated inputs, and
// runs each call through the one SDK method it names. Errors come back as tool results an agent
// can act on: the problem's code and detail, plus the recovery hints the service gave.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AgentInbox, AgentInboxError, CONTRACT_VERSION, INPUTS, type OperationId } from '@agent-inbox/sdk';
import { TOOLS, type ToolSpec } from './tools.ts';

export function toolList() {
  return TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: INPUTS[t.operationId]!.schema as { type: 'object' } }));
}

/** Splits a tool's flat arguments into the SDK method's positional path parameters, body and query. */
function callArguments(tool: ToolSpec, args: Record<string, unknown>, pathOrder: string[]): unknown[] {
  const where = INPUTS[tool.operationId]!.where;
  const body: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (where[k] === 'body') body[k] = v;
    else if (where[k] === 'query') query[k] = v;
  }
  const hasBody = Object.values(where).includes('body');
  const hasQuery = Object.values(where).includes('query');
  return [...pathOrder.map((p) => String(args[p] ?? '')), ...(hasBody ? [body] : []), ...(hasQuery ? [query] : [])];
}

function asText(value: unknown): CallToolResult {
  if (value instanceof Uint8Array) {
    return { content: [{ type: 'text', text: JSON.stringify({ size: value.byteLength, base64: Buffer.from(value).toString('base64') }) }] };
  }
  return { content: [{ type: 'text', text: value === undefined ? '{"ok":true}' : JSON.stringify(value, null, 2) }] };
}

/** What an agent needs to correct itself in one step. */
export function errorResult(err: unknown): CallToolResult {
  if (err instanceof AgentInboxError) {
    const hints: Record<string, unknown> = {};
    if (err.retryWith !== undefined) hints.retry_with = err.retryWith;
    if (err.allowedActions.length) hints.allowed_action = err.allowedActions;
    if (err.retryAfterSeconds !== undefined) hints.retry_after_seconds = err.retryAfterSeconds;
    const body = { status: err.status, code: err.code, detail: err.detail, errors: err.errors, request_id: err.requestId, ...hints };
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body, null, 2) }] };
  }
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ code: 'unavailable', detail: (err as Error).message }) }] };
}

export function createMcpServer(client: AgentInbox): Server {
  const server = new Server({ name: 'agent-inbox', version: CONTRACT_VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolList() }));
  // Set when this server took the temporary key of its own sign_up, so verify_signup swaps it for the durable key.
  let signingUp = false;
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) return { isError: true, content: [{ type: 'text', text: `No tool named ${request.params.name}.` }] };
    const method = (client as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[tool.operationId]!;
    const pathOrder = [...client.pathOf(tool.operationId as OperationId).matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    try {
      const result = await method.apply(client, callArguments(tool, request.params.arguments ?? {}, pathOrder));
      // A server started without a key (stdio, first run) carries on as the agent it just enrolled.
      if (tool.name === 'redeem_enrollment' && !client.transport.hasApiKey()) {
        client.transport.setApiKey((result as { agent_key: string }).agent_key);
      }
      if (tool.name === 'sign_up' && (signingUp || !client.transport.hasApiKey())) {
        client.transport.setApiKey((result as { temporary_key: string }).temporary_key);
        signingUp = true;
      }
      if (tool.name === 'verify_signup' && signingUp) {
        client.transport.setApiKey((result as { agent_key: string }).agent_key);
        signingUp = false;
      }
      return asText(result);
    } catch (err) {
      return errorResult(err);
    }
  });
  return server;
}
