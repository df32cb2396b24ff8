#!/usr/bin/env bash
# Regenerates the raw layer with jextract, into a scratch folder, for diffing against the
# hand-written io.remus.verbs.ffi (see README.md). Needs a jextract build for JDK 22+ (on PATH,
# or JEXTRACT=/path/to/jextract) and libibverbs-dev librdmacm-dev (bin/install-deps).
#   jextract/regenerate.sh [OUTPUT_DIR]    default: verbs-ffm/target/jextract-src
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/../verbs-ffm/target/jextract-src}"
jextract="${JEXTRACT:-jextract}"
mkdir -p "$out"
cd "$here"
"$jextract" \
  -I /usr/include \
  --target-package io.remus.verbs.ffi \
  --header-class-name RdmaHeaders \
  -l :libibverbs.so.1 \
  -l :librdmacm.so.1 \
  --output "$out" \
  @includes.txt \
  headers.h
echo "generated into $out/io/remus/verbs/ffi; compare with:"
echo "  diff -r $out/io/remus/verbs/ffi $here/../verbs-ffm/src/main/java/io/remus/verbs/ffi"
