#!/usr/bin/env node
// agent-inbox-mcp: the MCP server over stdio for local clients (Claude Desktop, Claude Code, ...).
// The API address and the agent key come from the environment; without a key the server starts
// anyway and acts as the agent that its redeem_enrollment tool enrolls.
import { runStdio } from './stdio.ts';

const apiBaseUrl = process.env.AGENT_INBOX_URL ?? 'http://127.0.0.1:8080';
await runStdio({ apiBaseUrl, apiKey: process.env.AGENT_INBOX_API_KEY || undefined });
