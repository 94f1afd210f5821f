#!/bin/sh
# Assembles what the container image runs, from a checkout where `pnpm install` and
# `pnpm build` have run: the bundle (and any other app's build output), the migrations, and
# the API's production dependencies only. No sources: launch.mjs then runs the prebuilt
# bundle and writes nothing. The Dockerfile and apps/api/test/image.test.ts both use it.
#
#   sh apps/api/runtime-tree.sh <target directory>     (from the repository root)
set -eu
target=$1
deploy=$(mktemp -d)
trap 'rm -rf "$deploy"' EXIT
# --prefer-offline: the cache answers what it holds; metadata it lacks (a dependency added since
# the cache was filled) comes from the registry.
pnpm --filter @memory-bank/api deploy --prod --prefer-offline "$deploy/api" >/dev/null
mkdir -p "$target/apps/api"
cp -a drizzle "$target/"
cp -a "$deploy/api/node_modules" "$deploy/api/package.json" apps/api/launch.mjs apps/api/dist "$target/apps/api/"
# What `pnpm build` makes for the other apps (the web console), where the server looks for it.
for built in apps/*/dist; do
  case "$built" in apps/api/dist | 'apps/*/dist') continue ;; esac
  mkdir -p "$target/$(dirname "$built")"
  cp -a "$built" "$target/$built"
done
