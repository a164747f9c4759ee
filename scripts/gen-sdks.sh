#!/usr/bin/env bash
# `npm run sdks`: the Python and Go SDKs of the provider plugin, generated from its schema
# (provider/plugin/schema.json) by Pulumi's own generators (pkg/v3 codegen, through
# scripts/go-tool.sh), into dist/sdks/<language> (or the directory given). The set-up runs it
# after the TypeScript build. Each SDK carries package.json's version (the schema's), and its docs
# name fields as its language does (scripts/pulumi-schema). C# has no generator here:
# `pulumi package gen-sdk --language dotnet` needs the .NET language host, which the module proxy
# does not serve (docs/guides/other-languages.md).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$ROOT/dist/sdks}"
for language in python go; do
  rm -rf "$OUT/$language"
  bash "$ROOT/scripts/go-tool.sh" pulumi-schema sdk "$ROOT/provider/plugin/schema.json" "$language" "$OUT/$language" >&2
done
printf '%s\n' "$OUT"
