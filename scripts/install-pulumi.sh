#!/usr/bin/env bash
# Makes the Pulumi CLI (default 3.259.0, env PULUMI_VERSION) available in
#   $HOME/.pulumi/versions/<version>/bin   (pulumi, pulumi-language-nodejs, pulumi-resource-pulumi-nodejs)
# — the directory that the npm `pulumi` package and the Automation API's PulumiCommand both use —
# and prints that directory as the LAST line of stdout. Progress goes to stderr. Idempotent: a second
# run is a no-op that only asks the installed `pulumi` for its version.
#
# Where the CLI comes from, first that works:
#   1. already installed in that directory (`pulumi version` >= the wanted one, all three files there);
#   2. a `pulumi` on PATH that reports exactly the wanted version: copied, with the language host and
#      the dynamic-provider script beside it when they are there;
#   3. a machine that reaches get.pulumi.com: the npm package `pulumi@<version>` (same version as the
#      CLI), whose first run downloads the official release into the same directory. This path is kept
#      simple and is NOT exercised by CI (CI has no route to get.pulumi.com);
#   4. otherwise a build from Go modules (the only route on machines that reach package registries only):
#      - `pulumi`: github.com/pulumi/pulumi/pkg/v3/cmd/pulumi at the release tag, built from a small
#        wrapper module under ~/.cache/forge-pulumi/build-<version> (pkg/v3's go.mod has `replace`
#        lines, so `go install pkg@version` refuses it; the non-local ones are copied into the wrapper);
#      - `pulumi-language-nodejs`: the release's own host is the untagged module
#        github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3, required by the pseudo-version
#        of the release commit. When the module proxy in use refuses that pseudo-version (the mirror this
#        project's machines use does: 403), the newest official Node host that IS a published module is
#        used instead: the one inside github.com/pulumi/pulumi/sdk/v3 up to v3.68.0 (it moved to its own
#        untagged module after that). It runs programs (JavaScript and TypeScript), dynamic providers,
#        config and outputs against the 3.259 engine, but it predates RunPlugin, which the engine uses to
#        start Node policy packs (`--policy-pack`) and Node plugins. So in that case the bin directory gets
#        a small shim (Go source generated below, built against sdk/v3 of the release) that forwards every
#        LanguageRuntime call to that host, kept at <version>/libexec/pulumi-language-nodejs, and answers
#        RunPlugin itself by starting @pulumi/pulumi/cmd/run-policy-pack (policy packs) or
#        cmd/run-plugin (plugins) with node, as the current host does.
#      - `pulumi-resource-pulumi-nodejs`: the shell script at the root of the npm package @pulumi/pulumi
#        of the same version (from a node_modules that has that version, else `npm pack`).
#   Policy packs need no `pulumi-analyzer-policy` script: the 3.259 engine runs a Node policy pack
#   through the language host's RunPlugin whenever a `nodejs` language plugin is found, and only falls
#   back to a `pulumi-analyzer-policy-<runtime>` executable when none is. Neither @pulumi/pulumi nor
#   @pulumi/policy ships such a script any more.
#
# Needs: bash, npm, node on PATH when Pulumi runs; for route 4 Go >= the go directive of pkg/v3
# (1.25.11 for 3.259.0; /usr/local/go/bin/go is used when `go` is not on PATH) and the Go module proxy.
# Go's own caches (~/go/pkg/mod, ~/.cache/go-build) are used; nothing is written inside the repository.
# Measured on 2 cores: cold (empty Go caches) about 6 min, 5 of them for `pulumi`; a warm run ~0.15 s.
# 3.274.1 (PULUMI_VERSION=3.274.1, the newest tested): `pulumi` alone cold 7 min 00 s on a quiet
# machine (10 min 28 s CPU; Go module cache +1.4 GB, build cache +1.7 GB); the whole install took
# 26 min 38 s on a loaded one (8 min 55 s CPU). Its Node host is the shim too (the proxy refuses
# the release's host module), and npm has no @pulumi/pulumi 3.274.1 (see the script's last step).
# Disk: the bin directory ~126 MB (+18 MB libexec); Go module cache ~1.8 GB, build cache ~1.9 GB.
set -euo pipefail

V="${PULUMI_VERSION:-3.259.0}"
V="${V#v}"
ROOT="$HOME/.pulumi/versions/$V"
BIN="$ROOT/bin"
CACHE="$HOME/.cache/forge-pulumi"
BUILD="$CACHE/build-$V"
# Newest sdk/v3 that still contains nodejs/cmd/pulumi-language-nodejs (used only if the release's own
# language host module cannot be fetched).
NODEHOST_FALLBACK_SDK="${PULUMI_NODEJS_HOST_FALLBACK_SDK:-3.68.0}"
MANIFEST="$ROOT/forge-install.txt"

PKG_MOD=github.com/pulumi/pulumi/pkg/v3
SDK_MOD=github.com/pulumi/pulumi/sdk/v3
HOST_MOD=github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3
VERSION_VAR=github.com/pulumi/pulumi/sdk/v3/go/common/version.Version

log() { printf 'install-pulumi: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Prints the version a pulumi binary reports, without the leading v ("" when it does not run).
version_of() {
  { PULUMI_SKIP_UPDATE_CHECK=true "$1" version 2>/dev/null || true; } | head -n 1 | tr -d '[:space:]' | sed 's/^v//'
}
# version_ge A B: A >= B in version order.
version_ge() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" = "$2" ]; }

# True when the bin directory holds a usable set of the three executables.
complete() {
  [ -x "$BIN/pulumi" ] && [ -x "$BIN/pulumi-language-nodejs" ] && [ -x "$BIN/pulumi-resource-pulumi-nodejs" ] || return 1
  # A shimmed language host needs the real host it forwards to.
  if [ -f "$MANIFEST" ] && grep -q '^nodejs-host=shim' "$MANIFEST"; then
    [ -x "$ROOT/libexec/pulumi-language-nodejs" ] || return 1
  fi
  local have
  have="$(version_of "$BIN/pulumi")"
  [ -n "$have" ] && version_ge "$have" "$V"
}

finish() {
  complete || die "the bin directory $BIN is incomplete after install"
  log "pulumi $(version_of "$BIN/pulumi") ready in $BIN"
  printf '%s\n' "$BIN"
  exit 0
}

# Copies file $1 to $BIN/$2 (or $3 as the directory), executable, replacing atomically.
install_exe() {
  local src="$1" name="$2" dir="${3:-$BIN}"
  mkdir -p "$dir"
  cp -L "$src" "$dir/.$name.tmp.$$"
  chmod 0755 "$dir/.$name.tmp.$$"
  mv -f "$dir/.$name.tmp.$$" "$dir/$name"
}

# ---------------------------------------------------------------------------------------------------
# 1. Already installed.
if complete; then
  printf '%s\n' "$BIN"
  exit 0
fi

mkdir -p "$CACHE"
# One installer at a time per version (a second one waits, then usually finds the work done).
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE/install-$V.lock"
  flock 9
  if complete; then
    printf '%s\n' "$BIN"
    exit 0
  fi
fi

# ---------------------------------------------------------------------------------------------------
# 2. A pulumi of exactly this version on PATH.
path_pulumi="$(command -v pulumi 2>/dev/null || true)"
if [ -n "$path_pulumi" ]; then
  path_pulumi="$(readlink -f "$path_pulumi")"
  if [ "$(dirname "$path_pulumi")" != "$(readlink -f "$BIN" 2>/dev/null || echo "$BIN")" ] \
    && [ "$(version_of "$path_pulumi")" = "$V" ]; then
    log "reusing $path_pulumi (v$V from PATH)"
    src_dir="$(dirname "$path_pulumi")"
    install_exe "$path_pulumi" pulumi
    for f in pulumi-language-nodejs pulumi-resource-pulumi-nodejs; do
      if [ -x "$src_dir/$f" ] && [ ! -x "$BIN/$f" ]; then install_exe "$src_dir/$f" "$f"; fi
    done
    if [ -x "$src_dir/../libexec/pulumi-language-nodejs" ]; then
      # Another install made by this script: its language host is the shim and needs the real host.
      install_exe "$src_dir/../libexec/pulumi-language-nodejs" pulumi-language-nodejs "$ROOT/libexec"
    fi
    if [ -f "$src_dir/../forge-install.txt" ]; then
      cp "$src_dir/../forge-install.txt" "$MANIFEST"
    elif [ -x "$BIN/pulumi-language-nodejs" ]; then
      printf 'source=path %s\nnodejs-host=release\n' "$path_pulumi" >"$MANIFEST"
    fi
    if complete; then finish; fi
    log "the pulumi on PATH came without the Node.js language host or plugin script; adding them"
  fi
fi

# ---------------------------------------------------------------------------------------------------
# 3. Online: the official release through the npm package `pulumi` (untested here: no route to
#    get.pulumi.com from this project's machines).
if [ ! -x "$BIN/pulumi" ] && command -v curl >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 \
  && curl -fsI --max-time 5 https://get.pulumi.com >/dev/null 2>&1; then
  log "get.pulumi.com is reachable: installing the official CLI through npm package pulumi@$V"
  npm_dir="$CACHE/npm-cli-$V"
  if npm install --silent --no-audit --no-fund --prefix "$npm_dir" "pulumi@$V" >&2 \
    && PULUMI_HOME="$HOME/.pulumi" PULUMI_VERSION="$V" PULUMI_SKIP_UPDATE_CHECK=true \
      "$npm_dir/node_modules/.bin/pulumi" version >&2; then
    printf 'source=npm pulumi@%s (official release)\nnodejs-host=release\n' "$V" >"$MANIFEST"
    if complete; then finish; fi
  fi
  log "the official install did not complete; building from Go modules instead"
fi

# ---------------------------------------------------------------------------------------------------
# 4. Build from Go modules.
GO="$(command -v go 2>/dev/null || true)"
[ -n "$GO" ] || GO=/usr/local/go/bin/go
[ -x "$GO" ] || die "no Go toolchain (need Go >= 1.25.11 on PATH or at /usr/local/go/bin/go)"
export GOTOOLCHAIN=local
unset GOFLAGS
# Never let a go.work of some parent directory take part.
export GOWORK=off

# Prints the `replace` directives of go.mod $1 whose target is a module (not a local directory).
nonlocal_replaces() {
  awk '
    /^replace[ \t]*\(/ { blk = 1; next }
    blk && /^\)/ { blk = 0; next }
    { l = $0; sub(/\/\/.*/, "", l) }
    !blk && !/^replace[ \t]/ { next }
    !blk { sub(/^replace[ \t]+/, "", l) }
    {
      n = split(l, p, "=>"); if (n < 2) next
      t = p[2]; gsub(/^[ \t]+|[ \t]+$/, "", t)
      if (t == "" || t ~ /^[.\/]/) next
      gsub(/^[ \t]+|[ \t]+$/, "", l); gsub(/[ \t]+/, " ", l)
      print "replace " l
    }
  ' "$1"
}
# go_directive GOMOD: the `go` line's version.
go_directive() { awk '$1 == "go" { print $2; exit }' "$1"; }
# gomod_path MODULE@VERSION: downloads the module's go.mod and prints its path in the module cache.
gomod_path() {
  { (cd "$BUILD" && GOFLAGS= "$GO" mod download -json "$1" 2>/dev/null) || true; } \
    | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p'
}

# write_wrapper DIR GO_VERSION IMPORT REQUIRE... -- REPLACE-FILE...: a module that only requires.
write_wrapper() {
  local dir="$1" gover="$2" import="$3"
  shift 3
  mkdir -p "$dir"
  {
    printf 'module forge.local/pulumi-build\n\ngo %s\n\nrequire (\n' "$gover"
    while [ "$#" -gt 0 ] && [ "$1" != -- ]; do printf '\t%s\n' "$1"; shift; done
    printf ')\n\n'
    [ "$#" -gt 0 ] && shift
    local f
    for f in "$@"; do nonlocal_replaces "$f"; done | sort -u
  } >"$dir/go.mod"
  if [ -n "$import" ]; then
    printf '//go:build tools\n\npackage tools\n\nimport _ "%s"\n' "$import" >"$dir/tools.go"
  fi
}

# go_build DIR PACKAGE OUT VERSION-STAMP
go_build() {
  local dir="$1" pkg="$2" out="$3" stamp="$4"
  (cd "$dir" && GOFLAGS=-mod=mod "$GO" build -trimpath \
    -ldflags "-s -w -X $VERSION_VAR=v$stamp" -o "$out" "$pkg") >&2
}

mkdir -p "$BUILD"
go_have="$("$GO" env GOVERSION 2>/dev/null | sed 's/^go//')"

log "resolving $PKG_MOD@v$V from the Go module proxy"
pkg_gomod="$(gomod_path "$PKG_MOD@v$V")"
[ -n "$pkg_gomod" ] && [ -f "$pkg_gomod" ] || die "cannot fetch $PKG_MOD@v$V from the Go module proxy"
sdk_gomod="$(gomod_path "$SDK_MOD@v$V")"
[ -n "$sdk_gomod" ] && [ -f "$sdk_gomod" ] || die "cannot fetch $SDK_MOD@v$V from the Go module proxy"
go_need="$(go_directive "$pkg_gomod")"
version_ge "$go_have" "$go_need" || die "Go $go_have is too old: pulumi v$V needs Go >= $go_need"

# --- pulumi -----------------------------------------------------------------------------------------
if [ ! -x "$BIN/pulumi" ] || [ "$(version_of "$BIN/pulumi")" != "$V" ]; then
  log "building pulumi v$V with Go $go_have (first time: a few minutes on 2 cores)"
  write_wrapper "$BUILD/cli" "$go_need" "$PKG_MOD/cmd/pulumi" \
    "$PKG_MOD v$V" "$SDK_MOD v$V" -- "$pkg_gomod" "$sdk_gomod"
  go_build "$BUILD/cli" "$PKG_MOD/cmd/pulumi" "$BUILD/out/pulumi" "$V"
  [ "$(version_of "$BUILD/out/pulumi")" = "$V" ] || die "the built pulumi does not report v$V"
  install_exe "$BUILD/out/pulumi" pulumi
fi

# --- pulumi-language-nodejs ------------------------------------------------------------------------
if [ ! -x "$BIN/pulumi-language-nodejs" ] || { [ -f "$MANIFEST" ] && grep -q '^nodejs-host=shim' "$MANIFEST" \
  && [ ! -x "$ROOT/libexec/pulumi-language-nodejs" ]; }; then
  # The release commit and its time make the pseudo-version of the untagged host module.
  rel="$(cd "$BUILD" && GOFLAGS= "$GO" list -m -f '{{.Time.UTC.Format "20060102150405"}} {{with .Origin}}{{.Hash}}{{end}}' "$PKG_MOD@v$V" 2>/dev/null || true)"
  rel_time="${rel%% *}"
  rel_hash="${rel#* }"
  host_gomod=""
  if [ -n "$rel_time" ] && [ ${#rel_hash} -ge 12 ]; then
    host_pv="v3.0.0-$rel_time-${rel_hash:0:12}"
    host_gomod="$(gomod_path "$HOST_MOD@$host_pv")"
  fi
  if [ -n "$host_gomod" ] && [ -f "$host_gomod" ]; then
    log "building the release's pulumi-language-nodejs ($HOST_MOD@$host_pv)"
    write_wrapper "$BUILD/nodehost" "$go_need" "$HOST_MOD" \
      "$PKG_MOD v$V" "$SDK_MOD v$V" "$HOST_MOD $host_pv" -- "$pkg_gomod" "$sdk_gomod" "$host_gomod"
    go_build "$BUILD/nodehost" "$HOST_MOD" "$BUILD/out/pulumi-language-nodejs" "$V"
    install_exe "$BUILD/out/pulumi-language-nodejs" pulumi-language-nodejs
    printf 'source=go-build %s@v%s\nnodejs-host=release %s@%s\n' "$PKG_MOD" "$V" "$HOST_MOD" "$host_pv" >"$MANIFEST"
  else
    F="$NODEHOST_FALLBACK_SDK"
    log "the Go module proxy does not serve $HOST_MOD for v$V;"
    log "using the Node.js host of $SDK_MOD@v$F behind a RunPlugin shim (see this script's header)"
    old_gomod="$(gomod_path "$SDK_MOD@v$F")"
    [ -n "$old_gomod" ] && [ -f "$old_gomod" ] || die "cannot fetch $SDK_MOD@v$F from the Go module proxy"
    write_wrapper "$BUILD/nodehost-sdk-$F" "$(go_directive "$old_gomod")" "$SDK_MOD/nodejs/cmd/pulumi-language-nodejs" \
      "$SDK_MOD v$F" -- "$old_gomod"
    go_build "$BUILD/nodehost-sdk-$F" "$SDK_MOD/nodejs/cmd/pulumi-language-nodejs" \
      "$BUILD/out/pulumi-language-nodejs-$F" "$F"

    shim="$BUILD/nodehost-shim"
    write_wrapper "$shim" "$go_need" "" "$SDK_MOD v$V" -- "$sdk_gomod"
    rm -f "$shim/tools.go"
    # The shim's source lives beside this script; it is built in the cache, never in the repo.
    cp "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/pulumi-nodejs-shim/main.go" "$shim/main.go"
    log "building the RunPlugin shim against $SDK_MOD@v$V"
    (cd "$shim" && GOFLAGS=-mod=mod "$GO" build -trimpath -ldflags "-s -w" -o "$BUILD/out/pulumi-language-nodejs-shim" .) >&2
    install_exe "$BUILD/out/pulumi-language-nodejs-$F" pulumi-language-nodejs "$ROOT/libexec"
    install_exe "$BUILD/out/pulumi-language-nodejs-shim" pulumi-language-nodejs
    printf 'source=go-build %s@v%s\nnodejs-host=shim over %s@v%s nodejs/cmd/pulumi-language-nodejs\n' \
      "$PKG_MOD" "$V" "$SDK_MOD" "$F" >"$MANIFEST"
  fi
fi

# --- pulumi-resource-pulumi-nodejs (dynamic providers) ----------------------------------------------
if [ ! -x "$BIN/pulumi-resource-pulumi-nodejs" ]; then
  script_src=""
  repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  for nm in "$PWD/node_modules" "$repo_dir/node_modules"; do
    pj="$nm/@pulumi/pulumi/package.json"
    if [ -f "$pj" ] && [ -f "$nm/@pulumi/pulumi/pulumi-resource-pulumi-nodejs" ] \
      && [ "$(sed -n 's/^[[:space:]]*"version": "\([^"]*\)".*/\1/p' "$pj" | head -n 1)" = "$V" ]; then
      script_src="$nm/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
      break
    fi
  done
  tmp=""
  if [ -z "$script_src" ]; then
    command -v npm >/dev/null 2>&1 || die "need npm to fetch @pulumi/pulumi@$V (for pulumi-resource-pulumi-nodejs)"
    log "fetching pulumi-resource-pulumi-nodejs from @pulumi/pulumi@$V"
    tmp="$(mktemp -d)"
    if (cd "$tmp" && npm pack --silent "@pulumi/pulumi@$V" >/dev/null 2>&1); then
      tar xzf "$tmp"/pulumi-pulumi-*.tgz -C "$tmp" package/pulumi-resource-pulumi-nodejs
      script_src="$tmp/package/pulumi-resource-pulumi-nodejs"
    else
      # The npm registry may lag the Go module proxy (3.274.1 is a Go module here, @pulumi/pulumi
      # stops at 3.270.0). The script only runs the dynamic provider of whatever @pulumi/pulumi the
      # program resolves, the same few lines in every release: take it from an installed package.
      for nm in "$PWD/node_modules" "$repo_dir/node_modules"; do
        if [ -f "$nm/@pulumi/pulumi/pulumi-resource-pulumi-nodejs" ]; then
          script_src="$nm/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
          log "npm has no @pulumi/pulumi@$V: using the script of $nm/@pulumi/pulumi (the same in every release)"
          break
        fi
      done
      [ -n "$script_src" ] || { rm -rf "$tmp"; die "npm pack @pulumi/pulumi@$V failed, and no installed @pulumi/pulumi has the script"; }
    fi
  fi
  install_exe "$script_src" pulumi-resource-pulumi-nodejs
  [ -z "$tmp" ] || rm -rf "$tmp"
fi

finish
