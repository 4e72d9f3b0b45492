#!/usr/bin/env bash
# Benchmark: `cudnnctl fetch` against `curl -o` on the loopback address, in the
# same run. A server started here (python3, sendfile) serves a redist
# directory: redistrib_9.19.0.json in NVIDIA's format naming one archive of
# MIB MiB (default 1024) of pseudo-random data. Each round times `curl -s -o`
# of the archive and `cudnnctl fetch 9.19.0.56` into an empty cache (which
# also reads the manifest, hashes the bytes while they stream, checks size
# and SHA-256, flushes the file to the disk and renames it), then a fetch of
# the cached release (the sidecar, no re-hash). Prints the best of ROUNDS
# runs of each, the ratio fetch/curl (the target: at most 1.2) and the
# cached answer in ms, then the medians and their ratio (these machines are
# noisy: compare both). usage: bench/fetch.sh CUDNNCTL [MIB] [ROUNDS]
set -euo pipefail
exe=${1:?usage: bench/fetch.sh CUDNNCTL [MIB] [ROUNDS]}
mib=${2:-1024}
rounds=${3:-3}
command -v curl >/dev/null || { echo "curl is needed (the reference)" >&2; exit 2; }
tmp=$(mktemp -d)
srv=
cleanup() {
        [ -n "$srv" ] && kill "$srv" 2>/dev/null || true
        rm -rf "$tmp"
}
trap cleanup EXIT
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
name=cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz
mkdir -p "$tmp/www/cudnn/linux-x86_64"
head -c "$((mib * 1048576))" /dev/urandom >"$tmp/www/cudnn/linux-x86_64/$name"
bytes=$((mib * 1048576))
sha=$(sha256sum "$tmp/www/cudnn/linux-x86_64/$name" | cut -d' ' -f1)
printf '{"release_date": "2026-01-20", "release_label": "9.19.0", "release_product": "cudnn", "cudnn": {"name": "NVIDIA CUDA Deep Neural Network library", "license": "cudnn", "version": "9.19.0.56", "cuda_variant": ["13"], "linux-x86_64": {"cuda13": {"relative_path": "cudnn/linux-x86_64/%s", "sha256": "%s", "md5": "00000000000000000000000000000000", "size": "%s"}}}}\n' \
        "$name" "$sha" "$bytes" >"$tmp/www/redistrib_9.19.0.json"
cat >"$tmp/serve.py" <<'PY'
import http.server, os, socketserver, sys
root = sys.argv[1]
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a):
        pass
    def do_GET(self):
        p = os.path.join(root, self.path.lstrip("/"))
        if not os.path.isfile(p):
            self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers(); return
        size = os.path.getsize(p)
        self.send_response(200)
        self.send_header("Content-Length", str(size))
        self.end_headers()
        with open(p, "rb") as f:
            self.wfile.flush()
            self.connection.sendfile(f)
class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
s = S(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
PY
python3 "$tmp/serve.py" "$tmp/www" >"$tmp/port" &
srv=$!
for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
url="http://127.0.0.1:$(cat "$tmp/port")"
cat "$tmp/www/cudnn/linux-x86_64/$name" >/dev/null # in the page cache
now() { date +%s.%N; }
best_curl= best_fetch= best_hit=
all_curl=() all_fetch=()
for r in $(seq "$rounds"); do
        rm -f "$tmp/curl.out"
        t0=$(now)
        curl -s -o "$tmp/curl.out" "$url/cudnn/linux-x86_64/$name"
        t1=$(now)
        rm -rf "$tmp/cache"
        "$exe" fetch 9.19.0.56 --cuda 13 --system linux --arch x86_64 --index "$url/" --cache "$tmp/cache" >/dev/null
        t2=$(now)
        "$exe" fetch 9.19.0.56 --cuda 13 --system linux --arch x86_64 --index "$url/" --cache "$tmp/cache" >/dev/null
        t3=$(now)
        c=$(echo "$t1 - $t0" | bc -l) f=$(echo "$t2 - $t1" | bc -l) h=$(echo "$t3 - $t2" | bc -l)
        printf 'round %d: curl -o %.3f s, fetch %.3f s, fetch (cached) %.1f ms\n' "$r" "$c" "$f" "$(echo "$h * 1000" | bc -l)"
        [ -z "$best_curl" ] || [ "$(echo "$c < $best_curl" | bc -l)" = 1 ] && best_curl=$c
        [ -z "$best_fetch" ] || [ "$(echo "$f < $best_fetch" | bc -l)" = 1 ] && best_fetch=$f
        [ -z "$best_hit" ] || [ "$(echo "$h < $best_hit" | bc -l)" = 1 ] && best_hit=$h
        all_curl+=("$c") all_fetch+=("$f")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
med_curl=$(median "${all_curl[@]}") med_fetch=$(median "${all_fetch[@]}")
[ "$(sha256sum "$tmp/cache/redist/$name" | cut -d' ' -f1)" = "$sha" ] || { echo "the fetched file differs" >&2; exit 1; }
printf 'data: %d MiB on 127.0.0.1; best of %d: curl -o %.3f s (%.0f MB/s), cudnnctl fetch %.3f s (%.0f MB/s), ratio %.2f; cached: %.1f ms\n' \
        "$mib" "$rounds" "$best_curl" "$(echo "$bytes / $best_curl / 1000000" | bc -l)" "$best_fetch" \
        "$(echo "$bytes / $best_fetch / 1000000" | bc -l)" "$(echo "$best_fetch / $best_curl" | bc -l)" \
        "$(echo "$best_hit * 1000" | bc -l)"
printf 'median of %d: curl -o %.3f s, cudnnctl fetch %.3f s, ratio %.2f\n' "$rounds" "$med_curl" "$med_fetch" \
        "$(echo "$med_fetch / $med_curl" | bc -l)"
