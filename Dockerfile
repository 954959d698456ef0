# agent-inbox as one image. `docker run IMAGE` runs every role (`start`); pass other arguments for
# one role (`start --role api`) or an operator command (`bootstrap --json`). See compose.yaml.
FROM node:20-bookworm-slim

WORKDIR /app
ENV NODE_ENV=production

# Dependencies before the source, so a code change does not reinstall them. The workspace
# packages' manifests must be present for npm ci to link @agent-inbox/sdk and @agent-inbox/mcp.
# The service runs its TypeScript through tsx, a runtime dependency.
COPY package.json package-lock.json ./
COPY packages/sdk/package.json packages/sdk/
COPY packages/mcp/package.json packages/mcp/
RUN npm ci --omit=dev && npm cache clean --force

COPY . .

# The SDK and MCP packages run from their JavaScript builds (packages/*/dist): the install above had
# no TypeScript (and `prepare` skipped the build), so build them now with the dev dependencies,
# then drop those again.
RUN npm ci --include=dev && npm prune --omit=dev && npm cache clean --force

# DATA_DIR keeps the development signing key and the generated encryption key (and the embedded
# PostgreSQL when no DATABASE_URL is given): mount a volume there. Inside a container the
# service must listen on every interface to be reachable through published ports.
RUN mkdir -p /data && chown node:node /data
USER node
ENV HOST=0.0.0.0 SMTP_HOST=0.0.0.0 DATA_DIR=/data
EXPOSE 8080 2525
VOLUME /data

HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The same Node flags as `npm start` (a larger young generation, see the README).
ENTRYPOINT ["node", "--max-semi-space-size=64", "bin/agent-inbox.mjs"]
CMD ["start"]
