# The Memory Bank API. Build context: the repository root.
#   docker build -t memory-bank .
#   docker run -p 8787:8787 -e DATABASE_URL=mysql://… memory-bank
# Every base image is pinned to an exact version; docs/operations.md#container-image.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# Build: all dependencies, the bundle built once here, then the runtime tree.
FROM ${NODE_IMAGE} AS build
RUN npm install -g pnpm@12.4.2
WORKDIR /src
# Packages are fetched from the lockfile alone, so this layer is reused until it changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --offline --frozen-lockfile \
 && pnpm build \
 && sh apps/api/runtime-tree.sh /runtime

# Runtime: the bundle, the migrations and production dependencies; no sources, no pnpm.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production PORT=8787 MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build /runtime ./
# Files stay root-owned and read-only to the server. The only place it writes is the
# default file archive (ARCHIVE_URL=file://./data/archive): mount a volume on /app/data,
# or use s3://.
RUN mkdir data && chown node:node data
USER node
EXPOSE 8787
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8787) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and handles SIGTERM itself: it drains requests (SHUTDOWN_DRAIN_MS), seals
# the archive and exits 0. Give `docker stop` more than the drain (compose: stop_grace_period).
# The heap bound and MALLOC_ARENA_MAX (ENV above) are those `pnpm start` sets
# (docs/operations.md#running; image.test.ts checks).
CMD ["node", "--max-old-space-size=256", "apps/api/launch.mjs", "main"]
