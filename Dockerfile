# agent-inbox as one image. `docker run IMAGE` runs every role (`start`); pass other arguments for
# one role (`start --role api`) or an operator command (`bootstrap --json`). See compose.yaml.
#
# Two stages: `build` installs the dev dependencies to compile the SDK and MCP packages
# (packages/*/dist); the runtime image installs the production dependencies only and takes the
# compiled packages from `build`, so TypeScript, the test tools and their trees never ship.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# Dependencies before the source, so a code change does not reinstall them. The workspace
# packages' manifests must be present for npm ci to link @agent-inbox/sdk and @agent-inbox/mcp.
# Scripts wait for the source (`prepare` compiles it); the build below runs them.
COPY package.json package-lock.json ./
COPY packages/sdk/package.json packages/sdk/
COPY packages/mcp/package.json packages/mcp/
RUN npm ci --include=dev --ignore-scripts
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production
# The service runs its TypeScript through tsx, a runtime dependency. Without TypeScript installed
# `prepare` builds nothing: the compiled packages come from the build stage.
COPY package.json package-lock.json ./
COPY packages/sdk/package.json packages/sdk/
COPY packages/mcp/package.json packages/mcp/
RUN npm ci --omit=dev && npm cache clean --force
COPY . .
COPY --from=build /app/packages/sdk/dist packages/sdk/dist
COPY --from=build /app/packages/mcp/dist packages/mcp/dist

# DATA_DIR keeps the development signing key and the generated encryption key (and the embedded
# PostgreSQL when no DATABASE_URL is given): mount a volume there. Inside a container the
# service must listen on every interface to be reachable through published ports.
RUN mkdir -p /data && chown node:node /data
USER node
ENV HOST=0.0.0.0 SMTP_HOST=0.0.0.0 DATA_DIR=/data
EXPOSE 8080 2525
VOLUME /data

# /readyz, not /healthz: the container is healthy once it can serve (database reachable,
# migrations applied), so compose and orchestrators route to it only then.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The same Node flags as `npm start` (a larger young generation, see the README).
ENTRYPOINT ["node", "--max-semi-space-size=64", "bin/agent-inbox.mjs"]
CMD ["start"]
