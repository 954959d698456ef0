// Streamable HTTP, stateless: each POST carries the agent's own key as a bearer and gets a fresh
// server bound to an SDK client with that key. Enrollment tokens are refused: redeem them first.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AgentInbox } from '@agent-inbox/sdk';
import { createMcpServer } from './server.ts';
import { MCP_HEADERS } from './tools.ts';

/** `apiBaseUrl` may be a function when the API's own address is known only once it listens. */
export type McpHttpOptions = { apiBaseUrl: string | (() => string) };

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', ...(status === 401 ? { 'www-authenticate': 'Bearer realm="agent-inbox"' } : {}) });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

export function mcpHttpHandler(opts: McpHttpOptions) {
  return async (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> => {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (!m) return refuse(res, 401, 'Send your agent key as "Authorization: Bearer pk_agent_...".');
    const key = m[1]!;
    if (key.startsWith('pk_enroll_')) return refuse(res, 401, 'An enrollment token is not an agent key: redeem it at POST /v1/enroll (tool redeem_enrollment over stdio).');
    if (!key.startsWith('pk_agent_')) return refuse(res, 401, 'Only agent keys (pk_agent_...) are accepted.');
    if (req.method !== 'POST') return refuse(res, 405, 'This MCP endpoint is stateless: POST JSON-RPC messages.');
    const baseUrl = typeof opts.apiBaseUrl === 'function' ? opts.apiBaseUrl() : opts.apiBaseUrl;
    const server = createMcpServer(new AgentInbox({ baseUrl, apiKey: key, headers: MCP_HEADERS }));
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true }); // no sessionIdGenerator: stateless
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, parsedBody);
  };
}
