# syntax=docker/dockerfile:1
# Node 24 is the current LTS; the code also runs on Node 20 and 22.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
# better-sqlite3 (the kept answers and the catalog copy) compiles where no prebuilt binary fits.
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends g++ make python3 \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
RUN npm run build

FROM ${NODE_IMAGE} AS prod-deps
# better-sqlite3 (the kept answers and the catalog copy) compiles where no prebuilt binary fits.
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends g++ make python3 \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/app/data
# The challenge solver drives Debian's Chromium (SOLVER=auto finds it at /usr/bin/chromium).
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Pages: EJS templates and the stylesheet and scripts they load (read from beside dist/ at run time).
COPY views ./views
COPY public ./public
COPY package.json ./
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# Live heap is small (cached bodies are Buffers outside it); without a cap V8 grows its old space
# lazily to several times that. The collector runs on the thread that needs it: with a small live
# heap its pauses stay short, and on the few cores a container gets, helper threads cost more in
# hand-offs than they save. Same flags as `npm start`.
CMD ["node", "--max-old-space-size=160", "--single-threaded-gc", "dist/main.js"]
