export { createMcpServer, toolList, errorResult } from './server.ts';
export { mcpHttpHandler, type McpHttpOptions } from './http.ts';
export { runStdio } from './stdio.ts';
export { TOOLS, NOT_TOOLS, PENDING_TOOLS, type ToolSpec } from './tools.ts';
