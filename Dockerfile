# One image for every process of the platform; the command picks which (README, "Deployment"):
#   npm run web | npm run worker | npm run inbound | npm run submission | npm run db:migrate
# The build runs the commands CI runs (.ci/run): `npm ci`, then `npm run build`.

FROM node:24-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 CI=true
# What `npm ci` needs, first, so the installed modules stay cached while only the code changes: the
# manifests (the SDK is a workspace) and what the postinstall's `prisma generate` reads.
COPY package.json package-lock.json ./
COPY sdk/package.json sdk/
COPY prisma ./prisma
COPY prisma.config.ts ./
COPY scripts/generate-prisma.mjs scripts/
RUN npm ci --no-audit --no-fund
COPY . .
# Then the build. What it leaves under .data (a generated secret) and its cache are not the image's;
# the generated Prisma client (lib/generated) stays, the dev tools (Prisma's CLI, the test runners,
# the npm copy of Node) go.
RUN npm run build && rm -rf .data .next/cache && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 DATA_DIR=/data
# Code and modules owned by root, read-only to the app; it writes only Next.js's cache and DATA_DIR
# (uploaded images when no S3 bucket is set).
COPY --from=build /app /app
RUN mkdir -p /app/.next/cache /data && chown node:node /app/.next/cache /data
USER node
# The web server, the inbound listener (delivery reports), the submission listener.
EXPOSE 3000 2525 2587
CMD ["npm", "run", "web"]
