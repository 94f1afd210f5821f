# The Memory Bank API. Build context: the repository root.
FROM node:20-bookworm-slim
RUN npm install -g pnpm@12.4.2
WORKDIR /app
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml tsconfig.base.json ./
COPY apps/api/package.json apps/api/
COPY packages/db/package.json packages/db/
COPY apps/console/package.json apps/console/
COPY packages/client/package.json packages/client/
RUN pnpm install --frozen-lockfile
COPY . .
ENV NODE_ENV=production PORT=8787
EXPOSE 8787
USER node
CMD ["pnpm", "start"]
