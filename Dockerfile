# Packvault: build stage (all dependencies, vite + esbuild), then a slim runtime with production
# dependencies only, running as the unprivileged `node` user. See docs/deploy.md.
ARG NODE_VERSION=20.20

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# dist/web (the SPA), dist/ssr (the page renderer, its packages bundled in), dist/server/*.mjs (the
# server bundles; npm packages stay external) and dist/sourcemaps (the SPA's maps, which stay here).
# The build fails when package.json's dependencies are not exactly what the bundles import.
RUN npm run build

# Production dependencies, cut to what the server bundles reach: npm also installs development
# packages that a production one names as an optional peer (better-auth: vitest, vite, drizzle-kit…),
# and every package's type declarations, maps and docs (scripts/runtime-deps.mjs --prune).
FROM node:${NODE_VERSION}-bookworm-slim AS runtime-deps
WORKDIR /app
COPY package.json package-lock.json ./
# No production dependency has an install script (sharp ships its native binary as the
# @img/sharp-linux-* optional package, picked by platform), so scripts stay off.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY scripts/runtime-deps.mjs ./scripts/
RUN node scripts/runtime-deps.mjs --prune

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/app/data
WORKDIR /app
COPY package.json ./
COPY --from=runtime-deps /app/node_modules ./node_modules
# What the built server reads at run time: its bundles, the page renderer and the SPA (not the
# SPA's source maps: dist/sourcemaps stays in the build stage), the migrations (drizzle/, found next
# to package.json by src/server/lib/paths.ts; the journal and the SQL, not the schema snapshots
# drizzle-kit diffs against) and the common-password list.
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/dist/ssr ./dist/ssr
COPY --from=build /app/dist/web ./dist/web
COPY drizzle/*.sql ./drizzle/
COPY drizzle/meta/_journal.json ./drizzle/meta/
COPY src/server/modules/auth/common-passwords.txt ./src/server/modules/auth/common-passwords.txt
# DATA_DIR holds uploads (and PGlite when DATABASE_URL is unset); a volume mounted here keeps this owner.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# Liveness: the process answers and reaches the database. Slim has no curl; node has fetch.
# Docker's one health state gates compose's depends_on and a rolling replace, so it is readiness
# (database reachable, migrations at head, not draining); /api/health stays the liveness probe for
# orchestrators that have both.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT||3000}/api/ready`).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself is PID 1 here, so SIGTERM reaches the server's drain (run with `init: true` to reap strays).
CMD ["node", "dist/server/main.mjs"]
