// The MCP server over stdio for local clients; the agent key comes from the environment.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { AgentInbox } from '@agent-inbox/sdk';
import { createMcpServer } from './server.ts';
import { MCP_HEADERS } from './tools.ts';

export async function runStdio(opts: { apiBaseUrl: string; apiKey?: string | undefined }): Promise<void> {
  const server = createMcpServer(new AgentInbox({ baseUrl: opts.apiBaseUrl, apiKey: opts.apiKey, headers: MCP_HEADERS }));
  await server.connect(new StdioServerTransport());
}
