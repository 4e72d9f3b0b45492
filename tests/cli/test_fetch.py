#!/usr/bin/env python3
"""fetch and install VERSION against an HTTP server on the loopback address
that this test starts (http.server on 127.0.0.1, port 0): NVIDIA's redist
directory (a listing, redistrib_X.Y.Z.json manifests in NVIDIA's format,
tar.xz archives of the cuDNN layout built here) and PyPI's simple index
(PEP 691 JSON by the Accept header, PEP 503 HTML) with many versions.

Covered: a good download (size, SHA-256, sidecar, no .part left), partial
versions (the newest matching; 9.10 after 9.9), a cache hit without a
request, --offline hit and miss, a wrong SHA-256 (refused, nothing under
the final name), a response closed early then resumed with Range (206), a
server that ignores Range, 404, a slow server (--timeout), a redirect, a
manifest that is not JSON and one that lacks fields, the wheel index in both
forms, --dry-run, no match, install VERSION. Nothing but 127.0.0.1 is
asked: the proxy variables are removed from the program's environment."""
import hashlib
import http.client
import http.server
import io
import json
import lzma
import os
import shutil
import socketserver
import sys
import random
import tarfile
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

PROXY_VARS = ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy",
              "NO_PROXY")

VERSION_H = """#define CUDNN_MAJOR %d
#define CUDNN_MINOR %d
#define CUDNN_PATCHLEVEL %d
#define CUDNN_VERSION (CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)
"""


def archive(version, cuda, system="linux", arch="x86_64", pad=0):
    """(file name, bytes) of a cuDNN 8.3+/9.x archive of that release: its layout, stub libraries; pad bytes of
    incompressible data in one more member (a file of several MiB goes through the download's threads: its
    chunks are 1 MiB)."""
    major, minor, patch = (int(x) for x in version.split(".")[:3])
    if system == "windows":
        name = "cudnn-windows-x86_64-%s_cuda%d-archive.zip" % (version, cuda)
        import zipfile
        b = io.BytesIO()
        top = name[:-4]
        def member(n):  # a fixed time: the same release built twice is the same bytes
            return zipfile.ZipInfo(n, date_time=(2025, 1, 1, 0, 0, 0))
        with zipfile.ZipFile(b, "w") as z:
            z.writestr(member(top + "/include/cudnn_version.h"), VERSION_H % (major, minor, patch))
            z.writestr(member(top + "/bin/cudnn64_%d.dll" % major), b"MZ stub\n" * 64)
            if pad:
                z.writestr(member(top + "/bin/cudnn_engines_precompiled64_%d.dll" % major),
                           random.Random(pad).randbytes(pad))
        return name, b.getvalue()
    name = "cudnn-linux-%s-%s_cuda%d-archive.tar.xz" % (arch, version, cuda)
    top = name[:-len(".tar.xz")]
    ver = "%d.%d.%d" % (major, minor, patch)
    members = {top + "/include/cudnn_version.h": (VERSION_H % (major, minor, patch)).encode(),
               top + "/include/cudnn.h": b"#include \"cudnn_version.h\"\n", top + "/LICENSE": b"license\n"}
    links = {}
    if pad:
        members[top + "/lib/libcudnn_engines_precompiled.a"] = random.Random(pad).randbytes(pad)
    for s in (["", "_graph", "_ops", "_cnn", "_adv", "_heuristic", "_engines_precompiled",
               "_engines_runtime_compiled"] if major >= 9 else ["", "_ops_infer", "_ops_train", "_cnn_infer",
                                                                 "_cnn_train", "_adv_infer", "_adv_train"]):
        lib = "libcudnn%s.so" % s
        members[top + "/lib/" + lib + "." + ver] = ("stub %s %s %s\n" % (lib, ver, cuda)).encode() * 40
        links[top + "/lib/" + lib + ".%d" % major] = lib + "." + ver
        links[top + "/lib/" + lib] = lib + ".%d" % major
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w:xz") as t:
        for d in (top, top + "/include", top + "/lib"):
            ti = tarfile.TarInfo(d)
            ti.type = tarfile.DIRTYPE
            ti.mode = 0o755
            t.addfile(ti)
        for n in sorted(members):
            ti = tarfile.TarInfo(n)
            ti.size = len(members[n])
            ti.mode = 0o644
            t.addfile(ti, io.BytesIO(members[n]))
        for n in sorted(links):
            ti = tarfile.TarInfo(n)
            ti.type = tarfile.SYMTYPE
            ti.linkname = links[n]
            t.addfile(ti)
    return name, b.getvalue()


def digest(data):
    return hashlib.sha256(data).hexdigest()


class Site:
    """What the server serves: path -> (bytes, content type), and how some paths misbehave."""

    def __init__(self):
        self.files = {}
        self.requests = []  # (path, Range header or None)
        self.trunc_once = set()  # paths whose first GET is cut in half
        self.no_range = set()  # paths served whole whatever Range says
        self.slow = {}  # path -> seconds to wait before the body
        self.slow_at = None  # time.monotonic() when a slow path's wait began
        self.redirect = {}  # path -> location
        self.lock = threading.Lock()

    def put(self, path, data, ctype="application/octet-stream"):
        self.files[path] = (data, ctype)


def redist_dir(site, prefix, releases, mangle=None):
    """A redist directory at prefix (ending in /): releases [(label X.Y.Z, version, [cuda...], 8x-style?)]."""
    names = []
    for label, version, cudas, single in releases:
        m = {"release_date": "2025-01-01", "release_label": label, "release_product": "cudnn",
             "cudnn": {"name": "NVIDIA CUDA Deep Neural Network library", "license": "cudnn",
                       "license_path": "cudnn/LICENSE.txt", "version": version}}
        if not single:
            m["cudnn"]["cuda_variant"] = [str(c) for c in cudas]
        for system, arch in (("linux", "x86_64"), ("linux", "sbsa"), ("windows", "x86_64")):
            plat = {}
            for c in cudas:
                # 9.19.0.56 for CUDA 13 (the downloads, truncations and resumes below): several MiB
                name, data = archive(version, c, system, arch, pad=(3 << 20) if (version, c) == ("9.19.0.56", 13) else 0)
                rel = "cudnn/%s-%s/%s" % (system, arch, name)
                site.put(prefix + rel, data)
                entry = {"relative_path": rel, "sha256": digest(data), "md5": hashlib.md5(data).hexdigest(),
                         "size": str(len(data))}
                plat["cuda%d" % c] = entry
            m["cudnn"]["%s-%s" % (system, arch)] = plat[list(plat)[0]] if single else plat
        text = json.dumps(m, indent=4)
        if mangle:
            text = mangle(label, m, text)
        site.put(prefix + "redistrib_%s.json" % label, text.encode(), "application/json")
        names.append("redistrib_%s.json" % label)
    listing = "<html><head><title>Index of /compute/cudnn/redist</title></head><body><pre>\n"
    listing += '<a href="../">../</a>\n<a href="cudnn/">cudnn/</a>\n'
    for n in sorted(names):
        listing += '<a href="%s">%s</a>    01-Jan-2025 00:00    %d\n' % (n, n, 4000)
    listing += "</pre></body></html>\n"
    site.put(prefix, listing.encode(), "text/html")


WHEEL_VERSIONS = {12: ["9.0.0.312", "9.1.0.70", "9.1.1.17", "9.9.0.52", "9.10.2.21", "9.19.0.56", "8.9.7.29"],
                  11: ["8.9.6.50", "9.0.0.312"]}


def pypi_index(site, prefix):
    """A simple index at prefix: JSON (PEP 691) or HTML (PEP 503) by the Accept header, many versions."""
    for cu, versions in WHEEL_VERSIONS.items():
        files = []
        for v in versions:
            for plat in ("manylinux2014_x86_64.manylinux_2_17_x86_64", "manylinux2014_aarch64", "win_amd64"):
                fn = "nvidia_cudnn_cu%d-%s-py3-none-%s.whl" % (cu, v, plat)
                data = ("wheel %s\n" % fn).encode() * 30
                site.put("/files/" + fn, data)
                files.append({"filename": fn, "url": "../" * prefix.count("/") + "files/" + fn, "hashes": {"sha256": digest(data)},
                              "requires-python": ">=3", "size": len(data), "yanked": False})
        # a yanked newer one and a source tarball: both left out
        files.append({"filename": "nvidia_cudnn_cu%d-9.99.0.1-py3-none-manylinux2014_x86_64.whl" % cu,
                      "url": "/files/yanked.whl", "hashes": {"sha256": "0" * 64}, "yanked": "broken"})
        files.append({"filename": "nvidia-cudnn-cu%d-0.0.1.tar.gz" % cu, "url": "/files/x.tar.gz", "hashes": {}})
        page = {"meta": {"api-version": "1.1"}, "name": "nvidia-cudnn-cu%d" % cu, "files": files,
                "versions": versions}
        site.put(prefix + "nvidia-cudnn-cu%d/#json" % cu, json.dumps(page).encode(),
                 "application/vnd.pypi.simple.v1+json")
        html = "<!DOCTYPE html><html><body><h1>Links for nvidia-cudnn-cu%d</h1>\n" % cu
        for f in files:
            y = ' data-yanked="%s"' % f["yanked"] if isinstance(f.get("yanked"), str) else ""
            h = "#sha256=" + f["hashes"]["sha256"] if f["hashes"].get("sha256") else ""
            html += '<a href="%s%s" data-requires-python="&gt;=3"%s>%s</a><br />\n' % (f["url"], h, y, f["filename"])
        html += "</body></html>\n"
        site.put(prefix + "nvidia-cudnn-cu%d/" % cu, html.encode(), "text/html")


def make_handler(site):
    class H(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def do_GET(self):  # noqa: N802 - http.server's name
            path = self.path.split("?")[0]
            rng = self.headers.get("Range")
            with site.lock:
                site.requests.append((path, rng))
            if path in site.redirect:
                self.send_response(302)
                self.send_header("Location", site.redirect[path])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            acc = self.headers.get("Accept", "")
            key = path
            if "vnd.pypi.simple.v1+json" in acc and (path + "#json") in site.files and "/html/" not in path:
                key = path + "#json"
            if key not in site.files:
                body = b"not found\n"
                self.send_response(404)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            data, ctype = site.files[key]
            start = 0
            if rng and rng.startswith("bytes=") and path not in site.no_range:
                start = int(rng[6:].split("-")[0])
            if start:
                self.send_response(206)
                self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data)))
            else:
                self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data) - start))
            self.end_headers()
            if path in site.slow:
                site.slow_at = time.monotonic()
                time.sleep(site.slow[path])
            body = data[start:]
            if path in site.trunc_once:
                site.trunc_once.discard(path)
                self.wfile.write(body[:len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

    return H


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def make_proxy(seen):
    """A forwarding HTTP proxy: a GET for an absolute URI (http://HOST:PORT/PATH)
    is asked of HOST:PORT and its answer sent back; each URI is appended to
    seen."""
    class P(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def do_GET(self):  # noqa: N802 - http.server's name
            seen.append(self.path)
            if not self.path.startswith("http://"):
                self.send_response(400)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            hostport, _, rest = self.path[len("http://"):].partition("/")
            host, _, port = hostport.partition(":")
            conn = http.client.HTTPConnection(host, int(port or 80), timeout=30)
            hdrs = {k: v for k, v in self.headers.items() if k.lower() in ("range", "accept", "user-agent")}
            conn.request("GET", "/" + rest, headers=hdrs)
            resp = conn.getresponse()
            body = resp.read()
            conn.close()
            self.send_response(resp.status)
            for k in ("Content-Type", "Content-Range", "Location"):
                if resp.getheader(k):
                    self.send_header(k, resp.getheader(k))
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return P


def main():
    ap = cliutil.parser(system=True, wrapper=True)
    args = ap.parse_args()
    if cliutil.wrapper_missing(args.wrapper):
        print("SKIP: %s not found" % args.wrapper)
        return 77
    win = args.system == "windows"
    prog = cliutil.Program(args.exe, args.wrapper, unset=PROXY_VARS, timeout=120)
    c = cliutil.Checks(limit=600)
    # a build without libarchive (the Windows one without scripts/mingw-libarchive.sh) reads no archive
    reads_archives = "archives: not supported" not in prog.run(["--version"]).out_text
    site = Site()
    rel = [("9.18.1", "9.18.1.3", [12, 13], False), ("9.19.0", "9.19.0.56", [12, 13], False),
           ("9.9.0", "9.9.0.52", [12], False), ("8.9.7", "8.9.7.29", [12], True)]
    redist_dir(site, "/redist/", rel)
    for p in ("/badsha/", "/trunc/", "/norange/", "/slow/", "/redir/", "/gone/"):
        redist_dir(site, p, [("9.19.0", "9.19.0.56", [13], False)])

    def bad_sha(label, m, text):
        for plat in m["cudnn"].values():
            if isinstance(plat, dict):
                for f in plat.values():
                    f["sha256"] = "ab" * 32
        return json.dumps(m)

    redist_dir(site, "/badsha/", [("9.19.0", "9.19.0.56", [13], False)], mangle=bad_sha)
    redist_dir(site, "/notjson/", [("9.19.0", "9.19.0.56", [13], False)],
               mangle=lambda l, m, t: "<html><body>Access denied</body></html>")

    def no_size(label, m, text):
        for plat in m["cudnn"].values():
            if isinstance(plat, dict):
                for f in plat.values():
                    f.pop("size", None)
        return json.dumps(m)

    redist_dir(site, "/nofields/", [("9.19.0", "9.19.0.56", [13], False)], mangle=no_size)
    sysname, arch = ("windows", "x86_64") if win else ("linux", "x86_64")
    name13, data13 = archive("9.19.0.56", 13, sysname, arch, pad=3 << 20)
    plat = "%s-%s" % (sysname, arch)
    site.trunc_once.add("/trunc/cudnn/%s/%s" % (plat, name13))
    site.trunc_once.add("/norange/cudnn/%s/%s" % (plat, name13))
    site.no_range.add("/norange/cudnn/%s/%s" % (plat, name13))
    site.slow["/slow/cudnn/%s/%s" % (plat, name13)] = 5
    site.redirect["/redir/cudnn/%s/%s" % (plat, name13)] = "/redist/cudnn/%s/%s" % (plat, name13)
    del site.files["/gone/cudnn/%s/%s" % (plat, name13)]
    pypi_index(site, "/pypi/simple/")
    pypi_index(site, "/pypi/html/simple/")

    srv = Server(("127.0.0.1", 0), make_handler(site))
    port = srv.server_address[1]
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d" % port
    work = tempfile.mkdtemp(prefix="cc-fetch-")
    n = [0]

    def cache():
        n[0] += 1
        d = os.path.join(work, "cache%d" % n[0])
        return d

    def run(args, **kw):
        return prog.run(["fetch"] + args, **kw)

    def name_path(r):
        return r.out_text.strip().splitlines()[-1] if r.out_text.strip() else ""

    def local(p):
        # a path the program printed, as this script reads it (Z:\... under Wine)
        if win and p[:2] in ("Z:", "z:"):
            return p[2:].replace("\\", "/")
        return p

    def cache_arg(d):
        return cliutil.wine_path(d) if win else d

    try:
        # ---- a good download, partial version: the newest 9 for CUDA 13 ----
        cd = cache()
        r = run(["9", "--cuda", "13", "--index", url + "/redist/", "--cache", cache_arg(cd)])
        p = local(name_path(r))
        c.named("good: exit 0", r.rc == 0, r.err_text)
        c.named("good: the newest 9 (9.19.0.56) for CUDA 13", os.path.basename(p) == name13, r.out_text)
        c.named("good: the bytes", os.path.isfile(p) and open(p, "rb").read() == data13, p)
        c.named("good: sidecar", os.path.isfile(p + ".sha256") and open(p + ".sha256").read().split()[0] ==
                digest(data13))
        c.named("good: no .part", not os.path.exists(p + ".part"))
        c.named("good: under CACHE/redist", os.path.dirname(p) == os.path.join(cd, "redist"), p)
        c.named("good: manifest cached", os.path.isfile(os.path.join(cd, "redist", "redistrib_9.19.0.json")))
        # ---- cache hit: no request for the archive, in milliseconds ----
        before = len(site.requests)
        r = run(["9.19.0.56", "--cuda", "13", "--index", url + "/redist/", "--cache", cache_arg(cd), "--json"])
        doc, why = cliutil.parse_json(r.out)
        c.named("cached: exit 0, status cached", r.rc == 0 and doc and doc["status"] == "cached", r.err_text + r.out_text)
        c.named("cached: no request at all (full version, manifest cached)", len(site.requests) == before,
                site.requests[before:])
        # the speed of a cached answer is bench/fetch.sh's (a timed test fails on a loaded machine): here
        # what makes it fast, no byte downloaded
        c.named("cached: nothing downloaded", doc and doc.get("downloaded_bytes") == 0, doc)
        if doc:
            for k in ("schema_version", "command", "source", "index", "version", "cuda_major", "system", "arch",
                      "file", "url", "size", "sha256", "manifest", "path", "status", "downloaded_bytes",
                      "resumed_from"):
                c.check(k in doc, "json: key %s" % k)
            c.named("json: size and sha256 of the manifest", doc.get("size") == len(data13) and
                    doc.get("sha256") == digest(data13))
        # ---- --offline ----
        r = run(["9.19", "--cuda", "13", "--offline", "--index", url + "/nowhere/", "--cache", cache_arg(cd)])
        c.named("offline hit: exit 0, same path", r.rc == 0 and os.path.basename(local(name_path(r))) == name13,
                r.err_text)
        r = run(["9.18", "--offline", "--cache", cache_arg(cd)])
        c.named("offline miss: exit 3 (not found), one line naming the cache", r.rc == 3 and "cache" in r.err_text and
                len(r.err_text.strip().splitlines()) == 1, r.err_text)
        # ---- partial versions ----
        r = run(["9.18", "--index", url + "/redist/", "--cache", cache_arg(cache()), "--json"])
        doc, _ = cliutil.parse_json(r.out)
        c.named("9.18: 9.18.1.3, newest variant (CUDA 13)", r.rc == 0 and doc and doc["version"] == "9.18.1.3" and
                doc["cuda_major"] == 13, r.err_text + r.out_text[:300])
        r = run(["8", "--index", url + "/redist/", "--cache", cache_arg(cache()), "--json"])
        doc, _ = cliutil.parse_json(r.out)
        c.named("8: the 8.x manifest (one file per platform), CUDA 12 from the name",
                r.rc == 0 and doc and doc["version"] == "8.9.7.29" and doc["cuda_major"] == 12,
                r.err_text + r.out_text[:300])
        r = run(["9.1", "--index", url + "/redist/", "--cache", cache_arg(cache())])
        c.named("9.1: no match (9.18 and 9.19 are not 9.1): exit 3", r.rc == 3 and "no cuDNN 9.1 " in r.err_text,
                r.err_text)
        r = run(["7", "--index", url + "/redist/", "--cache", cache_arg(cache())])
        c.named("7: no match, exit 3, one line", r.rc == 3 and len(r.err_text.strip().splitlines()) == 1, r.err_text)
        r = run(["nine", "--cache", cache_arg(cache())])
        c.named("not a version: exit 2", r.rc == 2 and "nine" in r.err_text, r.err_text)
        # ---- --dry-run: nothing downloaded ----
        cd = cache()
        before = len(site.requests)
        r = run(["9.19", "--cuda", "12", "--dry-run", "--index", url + "/redist/", "--cache", cache_arg(cd)])
        got = [q for q, _ in site.requests[before:] if q.endswith(".tar.xz") or q.endswith(".zip")]
        c.named("dry-run: exit 0, says url, size and sha256, no archive request",
                r.rc == 0 and "would download" in r.out_text and "sha256 " in r.out_text and not got,
                r.out_text + r.err_text)
        c.named("dry-run: no archive in the cache", not any(f.endswith((".xz", ".zip", ".part")) for _, _, fs in
                                                             os.walk(cd) for f in fs))
        # ---- wrong SHA-256 ----
        cd = cache()
        r = run(["9.19", "--cuda", "13", "--index", url + "/badsha/", "--cache", cache_arg(cd)])
        left = [f for _, _, fs in os.walk(cd) for f in fs if not f.startswith("redistrib_")]
        c.named("wrong sha256: exit 1, says SHA-256", r.rc == 1 and "SHA-256" in r.err_text, r.err_text)
        c.named("wrong sha256: nothing left (no file, no .part)", left == [], left)
        # ---- truncated, then resumed ----
        cd = cache()
        r = run(["9.19", "--cuda", "13", "--index", url + "/trunc/", "--cache", cache_arg(cd)])
        part = os.path.join(cd, "redist", name13 + ".part")
        c.named("truncated: exit 1, says closed early", r.rc == 1 and "closed after" in r.err_text, r.err_text)
        c.named("truncated: nothing under the final name", not os.path.exists(os.path.join(cd, "redist", name13)))
        half = os.path.getsize(part) if os.path.exists(part) else -1
        c.named("truncated: the part kept (%d bytes)" % half, 0 < half < len(data13))
        before = len(site.requests)
        r = run(["9.19", "--cuda", "13", "--index", url + "/trunc/", "--cache", cache_arg(cd), "--json"])
        doc, _ = cliutil.parse_json(r.out)
        rng = [h for q, h in site.requests[before:] if q.endswith(name13)]
        c.named("resumed: exit 0, a Range request from the part's end",
                r.rc == 0 and rng == ["bytes=%d-" % half], (r.err_text, rng))
        c.named("resumed: logged", ("resuming %s at %d bytes" % (name13, half)) in r.err_text, r.err_text)
        c.named("resumed: resumed_from and bytes right", doc and doc["resumed_from"] == half and
                doc["downloaded_bytes"] == len(data13) - half, r.out_text[:400])
        fp = os.path.join(cd, "redist", name13)
        c.named("resumed: the whole file", os.path.isfile(fp) and open(fp, "rb").read() == data13 and
                not os.path.exists(part))
        # ---- a server that ignores Range: starts over ----
        cd = cache()
        run(["9.19", "--cuda", "13", "--index", url + "/norange/", "--cache", cache_arg(cd)])
        r = run(["9.19", "--cuda", "13", "--index", url + "/norange/", "--cache", cache_arg(cd)])
        fp = os.path.join(cd, "redist", name13)
        c.named("no Range support: starts again and ends whole", r.rc == 0 and "starting again" in r.err_text and
                os.path.isfile(fp) and open(fp, "rb").read() == data13, r.err_text)
        # ---- 404 ----
        r = run(["9.19", "--cuda", "13", "--index", url + "/gone/", "--cache", cache_arg(cache())])
        c.named("404 archive: exit 3, HTTP 404 and the URL", r.rc == 3 and "HTTP 404" in r.err_text and
                "/gone/cudnn/" in r.err_text and len(r.err_text.strip().splitlines()) == 1, r.err_text)
        r = run(["9.19.0", "--index", url + "/nothing-here/", "--cache", cache_arg(cache())])
        c.named("404 manifest: exit 3, names redistrib_9.19.0.json", r.rc == 3 and "HTTP 404" in r.err_text and
                "redistrib_9.19.0.json" in r.err_text, r.err_text)
        r = run(["9", "--index", url + "/nothing-here/", "--cache", cache_arg(cache())])
        c.named("404 listing: exit 3", r.rc == 3 and "HTTP 404" in r.err_text, r.err_text)
        # ---- slow server: the time-out ----
        # Timed from the moment the server starts to hold the body back (5 s),
        # not from the start: before the archive's request the run lists the
        # index, reads a manifest and surveys this machine (9.19 with --cuda
        # only), which under Wine alone takes seconds.
        site.slow_at = None
        r = run(["9.19", "--cuda", "13", "--timeout", "1", "--index", url + "/slow/", "--cache", cache_arg(cache())])
        waited = time.monotonic() - site.slow_at if site.slow_at is not None else None
        c.named("slow: exit 1, 'no data for 1 s' and the URL, before the server wakes",
                r.rc == 1 and "no data for 1 s" in r.err_text and "/slow/" in r.err_text and
                waited is not None and waited < 4.0, (r.err_text, waited))
        # ---- redirect ----
        cd = cache()
        r = run(["9.19", "--cuda", "13", "--index", url + "/redir/", "--cache", cache_arg(cd)])
        fp = os.path.join(cd, "redist", name13)
        c.named("redirect: followed, the file whole", r.rc == 0 and os.path.isfile(fp) and
                open(fp, "rb").read() == data13, r.err_text)
        # ---- manifests that cannot be used ----
        cd = cache()
        r = run(["9.19", "--index", url + "/notjson/", "--cache", cache_arg(cd)])
        c.named("not JSON: exit 1, one line naming the manifest", r.rc == 1 and "redistrib_9.19.0.json" in r.err_text
                and len(r.err_text.strip().splitlines()) == 1, r.err_text)
        c.named("not JSON: not cached", not os.path.exists(os.path.join(cd, "redist", "redistrib_9.19.0.json")))
        r = run(["9.19", "--index", url + "/nofields/", "--cache", cache_arg(cache())])
        c.named("lacks size: exit 1, says what is missing", r.rc == 1 and 'no "size"' in r.err_text, r.err_text)
        # ---- PyPI: JSON (PEP 691) and HTML (PEP 503) ----
        wsys = "win_amd64" if win else "manylinux2014_x86_64.manylinux_2_17_x86_64"
        for form, idx in (("json", "/pypi/simple/"), ("html", "/pypi/html/simple/")):
            cd = cache()
            r = run(["9", "--source", "pypi", "--index", url + idx, "--cache", cache_arg(cd), "--json"])
            doc, _ = cliutil.parse_json(r.out)
            want = "nvidia_cudnn_cu12-9.19.0.56-py3-none-%s.whl" % wsys
            c.named("pypi %s: 9 -> 9.19.0.56 (cu13 absent: cu12; yanked 9.99 left out)" % form,
                    r.rc == 0 and doc and doc["file"] == want, r.err_text + r.out_text[:300])
            if doc:
                data = site.files["/files/" + want][0]
                fp = local(doc["path"])
                c.named("pypi %s: bytes and sha256" % form, os.path.isfile(fp) and open(fp, "rb").read() == data and
                        doc["sha256"] == digest(data))
                c.named("pypi %s: under CACHE/pypi" % form, os.path.dirname(fp) == os.path.join(cd, "pypi"), fp)
            r = run(["9.1", "--source", "pypi", "--cuda", "12", "--index", url + idx, "--cache", cache_arg(cd),
                     "--json"])
            doc, _ = cliutil.parse_json(r.out)
            c.named("pypi %s: 9.1 -> 9.1.1.17 (not 9.10, not 9.19)" % form, doc and doc["version"] == "9.1.1.17",
                    r.err_text + r.out_text[:300])
            r = run(["9", "--source", "pypi", "--cuda", "11", "--system", "linux", "--arch", "sbsa", "--index",
                     url + idx, "--cache", cache_arg(cd), "--json"])
            doc, _ = cliutil.parse_json(r.out)
            c.named("pypi %s: cu11 sbsa -> the aarch64 wheel 9.0.0.312" % form,
                    doc and doc["file"] == "nvidia_cudnn_cu11-9.0.0.312-py3-none-manylinux2014_aarch64.whl",
                    r.err_text + r.out_text[:300])
        # offline from the cached wheels
        r = run(["9.19", "--source", "pypi", "--offline", "--cache", cache_arg(cd), "--json"])
        doc, _ = cliutil.parse_json(r.out)
        c.named("pypi offline: the cached wheel", r.rc == 0 and doc and doc["status"] == "cached", r.err_text)
        # ---- a proxy from the environment, and no_proxy ----
        # libcurl reads http_proxy and no_proxy itself; the WinHTTP edge reads
        # them in http_winhttp.c. --system and --arch: no survey of this machine.
        seen = []
        psrv = Server(("127.0.0.1", 0), make_proxy(seen))
        threading.Thread(target=psrv.serve_forever, daemon=True).start()
        # Under Wine the proxy is named localhost: Wine's WinHTTP sends the
        # absolute URI only when the proxy's host name differs from the
        # server's (it compares the names, not the ports: build_request_string
        # in dlls/winhttp/request.c), so a proxy at 127.0.0.1 in front of
        # 127.0.0.1 would be sent "GET /redist/". Windows' own WinHTTP has no
        # such rule.
        purl = "http://%s:%d" % ("localhost" if win else "127.0.0.1", psrv.server_address[1])
        try:
            cd = cache()
            before = len(site.requests)
            r = run(["9.19", "--cuda", "13", "--system", sysname, "--arch", arch, "--index", url + "/redist/",
                     "--cache", cache_arg(cd)], env={"http_proxy": purl})
            fp = os.path.join(cd, "redist", name13)
            via = [u for u in seen if u.endswith("/redist/cudnn/%s/%s" % (plat, name13))]
            c.named("http_proxy: the archive through the proxy (an absolute URI), the file whole",
                    r.rc == 0 and via == [url + "/redist/cudnn/%s/%s" % (plat, name13)] and
                    len(site.requests) > before and os.path.isfile(fp) and open(fp, "rb").read() == data13,
                    (r.err_text, seen))
            c.named("http_proxy: the listing and the manifest through it too",
                    url + "/redist/" in seen and url + "/redist/redistrib_9.19.0.json" in seen, seen)
            asked = len(seen)
            cd = cache()
            r = run(["9.19", "--cuda", "13", "--system", sysname, "--arch", arch, "--index", url + "/redist/",
                     "--cache", cache_arg(cd)], env={"http_proxy": purl, "no_proxy": "127.0.0.1"})
            fp = os.path.join(cd, "redist", name13)
            c.named("no_proxy=127.0.0.1: direct (the proxy not asked), the file whole",
                    r.rc == 0 and len(seen) == asked and os.path.isfile(fp) and open(fp, "rb").read() == data13,
                    (r.err_text, seen[asked:]))
        finally:
            psrv.shutdown()
        # ---- install VERSION ----
        if reads_archives:
            cd = cache()
            into = os.path.join(work, "prefix")
            os.makedirs(into)
            r = prog.run(["install", "9.19", "--dry-run", "--index", url + "/redist/", "--cache", cache_arg(cd),
                          "--into", cache_arg(into)])
            c.named("install VERSION --dry-run: says what it would fetch, downloads nothing",
                    r.rc == 0 and "would download" in r.out_text and not os.path.exists(os.path.join(cd, "redist",
                                                                                                      name13)),
                    r.out_text + r.err_text)
            r = prog.run(["install", "9.19.0.56", "--yes", "--no-verify", "--json", "--index", url + "/redist/",
                          "--cache", cache_arg(cd), "--into", cache_arg(into)])
            doc, _ = cliutil.parse_json(r.out)
            c.named("install VERSION: fetched and installed", r.rc == 0 and doc and
                    doc.get("result", {}).get("status") == "installed" and
                    os.path.isfile(os.path.join(into, "include", "cudnn_version.h")), r.err_text + r.out_text[:500])
            ck = [x for x in (doc or {}).get("plan", {}).get("checks", []) if x.get("id") == "checksum"]
            c.named("install VERSION: checked against the manifest it was fetched by",
                    ck and ck[0].get("verdict") == "ok" and "redistrib_9.19.0.json" in ck[0].get("reason", ""),
                    json.dumps(ck)[:400])
    finally:
        srv.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    bad = [q for q in site.requests if not q[0].startswith("/")]
    c.check(not bad, "only this server was asked")
    return c.summary("fetch")


sys.exit(main())
