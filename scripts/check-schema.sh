#!/usr/bin/env bash
# Binds a Pulumi package schema with Pulumi's own Go binder (pkg/v3 codegen/schema, the code the
# engine and `pulumi package` use), so that a schema generated from the declarations is known to
# load: `bash scripts/check-schema.sh provider/plugin/schema.json` prints "ok <name> <resources>
# <functions>" or the binder's diagnostics and exits 1. Built once (scripts/go-tool.sh).
set -euo pipefail
SCHEMA="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
exec bash "$(dirname "${BASH_SOURCE[0]}")/go-tool.sh" pulumi-schema check "$SCHEMA"
