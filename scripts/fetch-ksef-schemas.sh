#!/usr/bin/env bash
# Deployment step: download the official KSeF schemas the service validates against (FA(3) with its base types,
# auth, UPO) and the OpenAPI, from the Ministry of Finance's public repository CIRFMF/ksef-docs at a pinned
# revision, and check every file's SHA-256 before use. Then point KSEF_SCHEMAS_DIR / KSEF_OPENAPI_PATH at them.
# Usage: scripts/fetch-ksef-schemas.sh TARGET_DIR
set -euo pipefail
target=${1:?usage: $0 TARGET_DIR}
revision=d92d285b928896258afdb27f7150f9127ee18ada
base=${KSEF_DOCS_RAW_BASE:-https://raw.githubusercontent.com/CIRFMF/ksef-docs/$revision}

# local path | path in the repository | SHA-256 (as listed in shared/ksef/SOURCES.md)
files=(
  "schemat_FA(3)_v1-0E.xsd|faktury/schemy/FA/schemat_FA(3)_v1-0E.xsd|b646b6b525f51adf1bb2545f111fc8ca6e7aa6dd2f98948f1667d3695c06d958"
  "bazowe/ElementarneTypyDanych_v10-0E.xsd|faktury/schemy/FA/bazowe/ElementarneTypyDanych_v10-0E.xsd|8daf4d3771de200b26b697294cc906a2add3de9acfbbd97f4b1bd4fc0e5ecb2f"
  "bazowe/KodyKrajow_v10-0E.xsd|faktury/schemy/FA/bazowe/KodyKrajow_v10-0E.xsd|48be2a9f181d7ff80f185c62491ba12604c5cacbbe21af8e2aaaf2c585bbd214"
  "bazowe/StrukturyDanych_v10-0E.xsd|faktury/schemy/FA/bazowe/StrukturyDanych_v10-0E.xsd|cb08348374598e1e716e086c40d740390fb9e1bfa3aba1f4ec4cba0e1ef6d60f"
  "auth/schemat_auth_v2-1.xsd|auth/schemy/schemat_auth_v2-1.xsd|d48477808e342892f62ef8bc7f0b134812f0536b3bb9cc8433d4fff2a926c44c"
  "upo/upo-v4-3.xsd|faktury/upo/schemy/upo-v4-3.xsd|1e5ff386a29324021a9e0126319680aec0b1e0d4f4a18add30b2f5d12ce6fa86"
  "openapi/open-api.json|open-api.json|fd1cbdd356a2be38962a7623e7f1501e3b6fddecfb416dff19e90599230e212e"
)

for entry in "${files[@]}"; do
  IFS='|' read -r local remote sha <<<"$entry"
  mkdir -p "$target/$(dirname "$local")"
  url="$base/$remote"; url=${url//(/%28}; url=${url//)/%29}
  curl -fsSL --retry 3 -o "$target/$local" "$url"
  echo "$sha  $target/$local" | sha256sum -c --quiet - || { echo "checksum mismatch: $local" >&2; exit 1; }
done
echo "KSeF schemas at $target: set KSEF_SCHEMAS_DIR=$target KSEF_OPENAPI_PATH=$target/openapi/open-api.json"
