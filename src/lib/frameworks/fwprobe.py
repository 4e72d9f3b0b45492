# cudnnctl's framework probe. `cudnnctl frameworks` writes this script (it is
# compiled into the program) to a private directory and runs it with each
# Python interpreter, in a child process with a time limit:
#
#   PYTHON -B fwprobe.py survey              the interpreter and the frameworks
#                                            it can import, without importing them
#   PYTHON -B fwprobe.py framework NAME [--gpu]
#                                            import NAME, ask it about CUDA and
#                                            cuDNN and list the CUDA and cuDNN
#                                            files mapped into this process;
#                                            then run one small convolution on
#                                            the GPU (--gpu, when it sees one)
#                                            and list the mapped files again
#
# It speaks the probe protocol of src/lib/probe/probe.h on the standard output
# it was started with, one JSON object per line:
#   {"t":"begin","step":S} / {"t":"end","step":S} around what may crash or hang
#   {"t":"fact","k":KEY,"v":VALUE}
#   {"t":"done"}  the report is complete: always the last line. A framework
#                 that ends the interpreter (os._exit, sys.exit in an import,
#                 a closed descriptor) never lets it through, and the tool
#                 then takes the report as cut short.
# Everything else written to standard output (by the frameworks) is sent to
# standard error, which the tool counts and keeps the tail of.
#
# The script must parse on Python 2.7 and 3.x, so an old interpreter is
# reported rather than failing with a SyntaxError; it probes only Python 3.
import os
import sys

FRAMEWORKS = ("torch", "tensorflow", "jax", "onnxruntime", "cupy")

# Distributions worth naming, by normalized name prefix.
DIST_PREFIXES = ("torch", "tensorflow", "tf-nightly", "tf-keras", "jax", "jaxlib", "onnxruntime", "ort-nightly",
                 "cupy", "nvidia-cudnn", "nvidia-cuda-runtime", "nvidia-cublas", "nvidia-cuda-nvrtc", "ctranslate2",
                 "paddlepaddle", "intel-extension-for-pytorch")

# Module file families (lower-case base names).
FAMILIES = (
    ("cudnn", ("libcudnn", "cudnn")),
    ("cudart", ("libcudart", "cudart64", "cudart32")),
    ("cublas", ("libcublas", "cublas64", "cublaslt64")),
    ("cuda-driver", ("libcuda.so", "nvcuda.dll")),
    ("nvrtc", ("libnvrtc", "nvrtc64", "nvrtc-builtins64")),
    ("nvml", ("libnvidia-ml", "nvml.dll")),
)

_chan = None


def emit(obj):
    import json
    line = json.dumps(obj, ensure_ascii=True, default=str, separators=(",", ":"))
    _chan.write(line + "\n")
    _chan.flush()


def fact(k, v):
    emit({"t": "fact", "k": k, "v": v})


def begin(step):
    emit({"t": "begin", "step": step})


def end(step):
    emit({"t": "end", "step": step})


def one_line(text, limit=600):
    """Text as one line of at most `limit` characters."""
    s = " ".join(str(text).split())
    return s if len(s) <= limit else s[:limit - 3] + "..."


def exc_text(e):
    return one_line("%s: %s" % (type(e).__name__, e))


def open_channel():
    """Keep the original standard output for the protocol; from now on file
    descriptor 1 (and sys.stdout) is standard error."""
    global _chan
    sys.stdout.flush()
    fd = os.dup(1)
    os.dup2(2, 1)
    _chan = os.fdopen(fd, "w")
    sys.stdout = sys.stderr


def no_network():
    """Refuse connections from Python code: a probe must not reach a network."""
    try:
        import socket

        def refuse(*args, **kwargs):
            raise OSError("network access is disabled in cudnnctl's framework probe")

        socket.socket.connect = refuse
        socket.socket.connect_ex = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse
    except Exception:  # noqa: BLE001 - a probe without socket still runs
        pass


# ---- the survey ---------------------------------------------------------------

def norm(name):
    return name.lower().replace("_", "-").replace(".", "-")


def read_metadata(path):
    """Name, Version and Requires-Dist of a METADATA / PKG-INFO file."""
    name = version = None
    requires = []
    try:
        with open(path, "rb") as f:
            data = f.read(262144)
    except Exception:  # noqa: BLE001
        return None
    for raw in data.decode("utf-8", "replace").splitlines():
        if not raw.strip():
            break  # the body starts
        if raw.startswith("Name:") and name is None:
            name = raw[5:].strip()
        elif raw.startswith("Version:") and version is None:
            version = raw[8:].strip()
        elif raw.startswith("Requires-Dist:"):
            requires.append(raw[14:].strip())
    if name is None:
        return None
    return {"name": name, "version": version, "requires": requires[:64]}


def distributions():
    """The distributions of interest on sys.path, in import order; a name met
    again later is shadowed by the first."""
    out = []
    seen = set()
    for entry in sys.path:
        d = entry or "."
        try:
            names = sorted(os.listdir(d))
        except Exception:  # noqa: BLE001
            continue
        for n in names:
            if n.endswith(".dist-info"):
                meta = os.path.join(d, n, "METADATA")
            elif n.endswith(".egg-info"):
                p = os.path.join(d, n)
                meta = os.path.join(p, "PKG-INFO") if os.path.isdir(p) else p
            else:
                continue
            guess = norm(n.split("-")[0])
            if not guess.startswith(DIST_PREFIXES):
                continue
            m = read_metadata(meta)
            if m is None or not norm(m["name"]).startswith(DIST_PREFIXES):
                continue
            m["location"] = os.path.abspath(d)
            m["metadata"] = os.path.abspath(os.path.join(d, n))
            key = norm(m["name"])
            m["shadowed"] = key in seen
            seen.add(key)
            out.append(m)
    return out


def site_dirs():
    out = []
    try:
        import site
        out.extend(site.getsitepackages())
        if getattr(site, "ENABLE_USER_SITE", False):
            out.append(site.getusersitepackages())
    except Exception:  # noqa: BLE001 - virtualenv's old site.py has no getsitepackages
        pass
    return out


def survey():
    import platform
    py = {
        "executable": sys.executable,
        "real_executable": os.path.realpath(sys.executable) if sys.executable else None,
        "version": "%d.%d.%d" % tuple(sys.version_info[:3]),
        "implementation": platform.python_implementation(),
        "prefix": sys.prefix,
        "base_prefix": getattr(sys, "base_prefix", sys.prefix),
        "platform": sys.platform,
        "bits": 64 if sys.maxsize > 2 ** 32 else 32,
        "virtual_env": getattr(sys, "base_prefix", sys.prefix) != sys.prefix,
        "conda": os.path.isdir(os.path.join(sys.prefix, "conda-meta")),
        "site_packages": site_dirs(),
    }
    fact("python", py)
    fact("distributions", distributions())
    found = {}
    for name in FRAMEWORKS:
        begin("find " + name)
        try:
            import importlib.util
            spec = importlib.util.find_spec(name)
            if spec is None:
                found[name] = {"importable": False}
            else:
                loc = spec.origin
                if loc in (None, "namespace") and spec.submodule_search_locations:
                    loc = list(spec.submodule_search_locations)[0]
                found[name] = {"importable": True, "origin": loc}
        except Exception as e:  # noqa: BLE001
            found[name] = {"importable": False, "error": exc_text(e)}
        end("find " + name)
    fact("found", found)


# ---- what is mapped -----------------------------------------------------------

def family(path):
    base = os.path.basename(path).lower()
    for fam, prefixes in FAMILIES:
        for p in prefixes:
            if base.startswith(p) and (".so" in base or base.endswith(".dll")):
                return fam
    return None


def mapped_files():
    """Every file mapped into this process as a module, once, in order."""
    out = []
    seen = set()
    if sys.platform.startswith("linux"):
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split(None, 5)
                if len(parts) < 6:
                    continue
                p = parts[5].strip()
                if p.endswith(" (deleted)"):
                    p = p[:-10]
                if p.startswith("/") and p not in seen:
                    seen.add(p)
                    out.append(p)
    elif sys.platform == "win32":
        import ctypes
        from ctypes import wintypes
        psapi = ctypes.WinDLL("psapi")
        k32 = ctypes.WinDLL("kernel32")
        k32.GetCurrentProcess.restype = wintypes.HANDLE
        proc = k32.GetCurrentProcess()
        n = 1024
        while True:
            arr = (wintypes.HMODULE * n)()
            need = wintypes.DWORD()
            if not psapi.EnumProcessModules(proc, arr, ctypes.sizeof(arr), ctypes.byref(need)):
                break
            if need.value <= ctypes.sizeof(arr):
                count = need.value // ctypes.sizeof(wintypes.HMODULE)
                buf = ctypes.create_unicode_buffer(32768)
                k32.GetModuleFileNameW.argtypes = [wintypes.HMODULE, wintypes.LPWSTR, wintypes.DWORD]
                for i in range(count):
                    if k32.GetModuleFileNameW(arr[i], buf, 32768):
                        p = buf.value
                        if p.startswith("\\\\?\\"):
                            p = p[4:]
                        if p.lower() not in seen:
                            seen.add(p.lower())
                            out.append(p)
                break
            n = need.value // ctypes.sizeof(wintypes.HMODULE) + 16
    return out


def loaded_versions(mods):
    """cudnnGetVersion and cudnnGetCudartVersion of the cuDNN libraries that
    export them, asked of the copies already mapped (nothing new is loaded)."""
    import ctypes
    out = []
    for m in mods:
        if m["family"] != "cudnn":
            continue
        base = os.path.basename(m["path"]).lower()
        if not (base.startswith("libcudnn.so") or base.startswith("libcudnn_graph.so") or
                base.startswith("libcudnn_ops_infer.so") or (base.startswith("cudnn64_") and base.endswith(".dll")) or
                base.startswith("cudnn_graph64_") or base.startswith("cudnn_ops_infer64_")):
            continue
        rec = {"path": m["path"]}
        try:
            if sys.platform == "win32":
                lib = ctypes.WinDLL(m["path"])
            else:
                mode = getattr(os, "RTLD_NOLOAD", 0) | getattr(os, "RTLD_LAZY", 1)
                lib = ctypes.CDLL(m["path"], mode=mode)
            for sym, key in (("cudnnGetVersion", "version"), ("cudnnGetCudartVersion", "cudart_version")):
                fn = getattr(lib, sym, None)
                if fn is not None:
                    fn.restype = ctypes.c_size_t
                    fn.argtypes = []
                    rec[key] = int(fn())
        except Exception as e:  # noqa: BLE001
            rec["error"] = exc_text(e)
        out.append(rec)
    return out


def report_modules(when):
    begin("modules")
    try:
        files = mapped_files()
        mods = [{"path": p, "family": family(p)} for p in files if family(p)]
        fact("modules", {"when": when, "total": len(files), "files": mods})
        end("modules")
        begin("loaded-version")
        fact("loaded_cudnn", loaded_versions(mods))
        end("loaded-version")
    except Exception as e:  # noqa: BLE001
        fact("modules", {"when": when, "error": exc_text(e)})
        end("modules")


# ---- the frameworks -----------------------------------------------------------

def dotted(v):
    """A cuDNN version: (9, 1, 0), 91900 (9.x: major * 10000), 8902 (up to
    8.x: major * 1000) or "9.1" as a dotted string; None stays None."""
    if v is None:
        return None
    if isinstance(v, (tuple, list)):
        return ".".join(str(int(x)) for x in v)
    if isinstance(v, int):
        if v >= 10000:
            return "%d.%d.%d" % (v // 10000, (v % 10000) // 100, v % 100)
        return "%d.%d.%d" % (v // 1000, (v % 1000) // 100, v % 100)
    return str(v)


def dotted_cuda(v):
    """A CUDA version number (12040: major * 1000 + minor * 10) as "12.4"."""
    if v is None:
        return None
    v = int(v)
    return "%d.%d" % (v // 1000, (v % 1000) // 10)


def attempt(info, key, fn):
    """info[key] = fn(), or info[key + "_error"] = why."""
    try:
        info[key] = fn()
    except Exception as e:  # noqa: BLE001
        info[key + "_error"] = exc_text(e)


def probe_torch(gpu):
    import torch
    info = {"version": getattr(torch, "__version__", None), "file": getattr(torch, "__file__", None)}
    v = getattr(torch, "version", None)
    info["cuda"] = getattr(v, "cuda", None)
    info["hip"] = getattr(v, "hip", None)
    build = {"cuda": info["cuda"], "cuda_build": info["cuda"] is not None}
    runtime = {}
    attempt(info, "cuda_available", lambda: bool(torch.cuda.is_available()))
    attempt(info, "device_count", lambda: int(torch.cuda.device_count()))
    attempt(info, "cudnn_available", lambda: bool(torch.backends.cudnn.is_available()))
    try:
        from torch._C import _cudnn
        build["cudnn"] = dotted(tuple(_cudnn.getCompileVersion()))
        build["cudnn_source"] = "torch._C._cudnn.getCompileVersion()"
    except Exception as e:  # noqa: BLE001
        build["cudnn_error"] = exc_text(e)
    try:
        rv = torch.backends.cudnn.version()
        runtime["cudnn"] = dotted(rv) if rv else None
        runtime["cudnn_raw"] = rv
        runtime["cudnn_source"] = "torch.backends.cudnn.version()"
    except Exception as e:  # noqa: BLE001 - the version rule's own error lands here
        runtime["cudnn_error"] = exc_text(e)
    devices = []
    if info.get("cuda_available"):
        for i in range(info.get("device_count") or 0):
            d = {"index": i}
            attempt(d, "name", lambda: torch.cuda.get_device_name(i))
            attempt(d, "capability", lambda: "%d.%d" % tuple(torch.cuda.get_device_capability(i)))
            devices.append(d)

    def gpu_call():
        call = {"what": "torch.nn.functional.conv2d on cuda:0 (cuDNN enabled)"}
        try:
            torch.backends.cudnn.enabled = True
            x = torch.randn(1, 3, 16, 16, device="cuda")
            w = torch.randn(4, 3, 3, 3, device="cuda")
            y = torch.nn.functional.conv2d(x, w, padding=1)
            torch.cuda.synchronize()
            ref = torch.nn.functional.conv2d(x.cpu(), w.cpu(), padding=1)
            call["ok"] = bool(torch.allclose(y.cpu(), ref, atol=1e-3, rtol=1e-3))
            if not call["ok"]:
                call["error"] = "the GPU result differs from the CPU result"
        except Exception as e:  # noqa: BLE001
            call["ok"] = False
            call["error"] = exc_text(e)
        if runtime.get("cudnn") is None:  # PyTorch loads cuDNN when it first needs it
            try:
                rv = torch.backends.cudnn.version()
                if rv:
                    runtime["cudnn"] = dotted(rv)
                    runtime["cudnn_raw"] = rv
                    runtime["cudnn_source"] = "torch.backends.cudnn.version()"
                    runtime.pop("cudnn_error", None)
            except Exception:  # noqa: BLE001
                pass
        return call

    call = ("gpu-call", gpu_call) if gpu and info.get("cuda_available") else None
    return info, build, runtime, devices, call


def probe_tensorflow(gpu):
    import tensorflow as tf
    info = {"version": getattr(tf, "__version__", None), "file": getattr(tf, "__file__", None)}
    build = {}
    runtime = {}
    try:
        bi = dict(tf.sysconfig.get_build_info())
        info["build_info"] = dict((str(k), str(v)) for k, v in bi.items())
        build["cuda"] = bi.get("cuda_version")
        build["cudnn"] = bi.get("cudnn_version")
        build["cudnn_source"] = "tf.sysconfig.get_build_info()"
        build["cuda_build"] = bool(bi.get("is_cuda_build")) if "is_cuda_build" in bi else None
    except Exception as e:  # noqa: BLE001
        build["cudnn_error"] = exc_text(e)
    if build.get("cuda_build") is None:
        attempt(build, "cuda_build", lambda: bool(tf.test.is_built_with_cuda()))
    devices = []
    try:
        gpus = tf.config.list_physical_devices("GPU")
        for i, g in enumerate(gpus):
            d = {"index": i, "name": getattr(g, "name", str(g))}
            try:
                tf.config.experimental.set_memory_growth(g, True)
            except Exception:  # noqa: BLE001
                pass
            try:
                det = tf.config.experimental.get_device_details(g)
                d["device_name"] = det.get("device_name")
                cc = det.get("compute_capability")
                if cc:
                    d["capability"] = "%d.%d" % tuple(cc)
            except Exception:  # noqa: BLE001
                pass
            devices.append(d)
    except Exception as e:  # noqa: BLE001
        info["devices_error"] = exc_text(e)

    def gpu_call():
        call = {"what": "tf.nn.conv2d on /GPU:0"}
        try:
            with tf.device("/GPU:0"):
                x = tf.random.normal([1, 16, 16, 3])
                w = tf.random.normal([3, 3, 3, 4])
                y = tf.nn.conv2d(x, w, strides=1, padding="SAME")
                _ = y.numpy()
            call["ok"] = True
        except Exception as e:  # noqa: BLE001
            call["ok"] = False
            call["error"] = exc_text(e)
        return call

    call = ("gpu-call", gpu_call) if gpu and devices else None
    return info, build, runtime, devices, call


def jax_cuda_versions():
    """The CUDA plugin's cuda_versions module, wherever this JAX keeps it."""
    import importlib
    for name in ("jax_cuda13_plugin._versions", "jax_cuda12_plugin._versions", "jax_cuda13_plugin.cuda_versions",
                 "jax_cuda12_plugin.cuda_versions", "jax_plugins.xla_cuda13", "jax_plugins.xla_cuda12",
                 "jaxlib.cuda._versions", "jax._src.lib.cuda_versions"):
        try:
            mod = importlib.import_module(name)
        except Exception:  # noqa: BLE001
            continue
        cv = getattr(mod, "cuda_versions", mod)
        if cv is not None and hasattr(cv, "cudnn_get_version"):
            return name, cv
    return None, None


def probe_jax(gpu):
    import jax
    info = {"version": getattr(jax, "__version__", None), "file": getattr(jax, "__file__", None)}
    try:
        import jaxlib
        info["jaxlib"] = getattr(jaxlib, "__version__", None)
    except Exception as e:  # noqa: BLE001
        info["jaxlib_error"] = exc_text(e)
    build = {}
    runtime = {}
    src, cv = jax_cuda_versions()
    info["plugin"] = src
    plugins = []
    for name in ("jax_cuda13_plugin", "jax_cuda12_plugin", "jax_plugins.xla_cuda13", "jax_plugins.xla_cuda12"):
        try:
            import importlib.util
            if importlib.util.find_spec(name) is not None:
                plugins.append(name)
        except Exception:  # noqa: BLE001 - no jax_plugins package at all
            pass
    info["plugins"] = plugins
    build["cuda_build"] = cv is not None or bool(plugins)
    if cv is not None:
        attempt(build, "cudnn", lambda: dotted(int(cv.cudnn_build_version())))
        build["cudnn_source"] = src + ".cudnn_build_version()"
        attempt(build, "cuda", lambda: dotted_cuda(cv.cuda_runtime_build_version()))
        attempt(runtime, "cudnn", lambda: dotted(int(cv.cudnn_get_version())))
        runtime["cudnn_source"] = src + ".cudnn_get_version()"
    devices = []
    try:
        for i, d in enumerate(jax.devices()):
            devices.append({"index": i, "platform": getattr(d, "platform", None),
                            "name": getattr(d, "device_kind", str(d))})
    except Exception as e:  # noqa: BLE001
        info["devices_error"] = exc_text(e)
    gpus = [d for d in devices if d.get("platform") in ("gpu", "cuda")]

    def gpu_call():
        call = {"what": "jax.lax.conv on the GPU"}
        try:
            import jax.numpy as jnp
            x = jnp.ones((1, 3, 16, 16), dtype=jnp.float32)
            w = jnp.ones((4, 3, 3, 3), dtype=jnp.float32)
            y = jax.lax.conv(x, w, (1, 1), "SAME")
            y.block_until_ready()
            call["ok"] = float(y[0, 0, 8, 8]) == 27.0
            if not call["ok"]:
                call["error"] = "the result is %r, not 27.0" % float(y[0, 0, 8, 8])
        except Exception as e:  # noqa: BLE001
            call["ok"] = False
            call["error"] = exc_text(e)
        return call

    call = ("gpu-call", gpu_call) if gpu and gpus else None
    return info, build, runtime, devices, call


def pb_varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def pb_field(num, value):
    """A protobuf field: an int (varint) or bytes/str (length-delimited)."""
    if isinstance(value, int):
        return pb_varint(num << 3) + pb_varint(value)
    if not isinstance(value, bytes):
        value = value.encode("utf-8")
    return pb_varint((num << 3) | 2) + pb_varint(len(value)) + value


def conv_model():
    """An ONNX model with one Conv (X 1x3x16x16, W 4x3x3x3 of ones): the
    smallest thing that makes the CUDA provider call cuDNN."""
    import struct

    def tensor_type(dims):
        shape = b"".join(pb_field(1, pb_field(1, d)) for d in dims)
        return pb_field(1, pb_field(1, 1) + (pb_field(2, shape) if dims else b""))

    w = pb_field(1, 4) + pb_field(1, 3) + pb_field(1, 3) + pb_field(1, 3) + pb_field(2, 1) + pb_field(8, "W") + \
        pb_field(9, struct.pack("<108f", *([1.0] * 108)))
    node = pb_field(1, "X") + pb_field(1, "W") + pb_field(2, "Y") + pb_field(4, "Conv")
    graph = pb_field(1, node) + pb_field(2, "g") + pb_field(5, w) + \
        pb_field(11, pb_field(1, "X") + pb_field(2, tensor_type([1, 3, 16, 16]))) + \
        pb_field(12, pb_field(1, "Y") + pb_field(2, tensor_type([])))
    return pb_field(1, 7) + pb_field(7, graph) + pb_field(8, pb_field(2, 13))


class StderrCapture(object):
    """What native code writes to file descriptor 2 while inside (the
    providers log there), kept in a temporary file and given back as text."""

    def __enter__(self):
        import tempfile
        sys.stderr.flush()
        self.saved = os.dup(2)
        self.tmp = tempfile.TemporaryFile()
        os.dup2(self.tmp.fileno(), 2)
        return self

    def __exit__(self, *exc):
        sys.stderr.flush()
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.tmp.seek(0)
        data = self.tmp.read(65536)
        self.tmp.close()
        self.text = data.decode("utf-8", "replace")
        os.write(2, data)  # still counted by the tool, as printed output
        return False


def probe_onnxruntime(gpu):
    import onnxruntime as ort
    info = {"version": getattr(ort, "__version__", None), "file": getattr(ort, "__file__", None)}
    build = {}
    runtime = {}
    attempt(info, "available_providers", lambda: list(ort.get_available_providers()))
    attempt(info, "device", lambda: ort.get_device())
    try:
        from onnxruntime.capi import version_info as vi
        build["cuda"] = getattr(vi, "cuda_version", None) or None
        build["cudnn"] = getattr(vi, "cudnn_version", None) or None
        build["cudnn_source"] = "onnxruntime.capi.version_info"
    except Exception as e:  # noqa: BLE001
        build["cudnn_error"] = exc_text(e)
    build["cuda_build"] = "CUDAExecutionProvider" in (info.get("available_providers") or [])
    devices = []

    def gpu_call():
        call = {"what": "an InferenceSession with CUDAExecutionProvider running one Conv" if gpu else
                "an InferenceSession with CUDAExecutionProvider (not run: GPU work was not asked for)"}
        cap = StderrCapture()
        try:
            with cap:
                sess = ort.InferenceSession(conv_model(), providers=["CUDAExecutionProvider", "CPUExecutionProvider"])
                call["providers"] = list(sess.get_providers())
                call["cuda_provider_created"] = "CUDAExecutionProvider" in call["providers"]
                if gpu and call["cuda_provider_created"]:
                    import numpy
                    y = sess.run(None, {"X": numpy.ones((1, 3, 16, 16), dtype=numpy.float32)})[0]
                    call["ok"] = float(y[0, 0, 8, 8]) == 27.0
                else:
                    call["ok"] = call["cuda_provider_created"]
        except Exception as e:  # noqa: BLE001
            call["ok"] = False
            call["error"] = exc_text(e)
        text = getattr(cap, "text", "")
        lines = [ln for ln in text.splitlines() if "CUDA" in ln or "cudnn" in ln.lower() or "cuDNN" in ln]
        if lines:
            call["log"] = one_line(" | ".join(lines[-6:]), 1500)
        if not call.get("cuda_provider_created") and "error" not in call:
            call["error"] = one_line(lines[-1]) if lines else \
                "the session has no CUDAExecutionProvider (its providers: %s)" % ", ".join(call.get("providers", []))
        return call

    # Creating the CUDA provider loads cuDNN, so it is done even without --gpu
    call = ("gpu-call" if gpu else "create-provider", gpu_call) if build["cuda_build"] else None
    return info, build, runtime, devices, call


def probe_cupy(gpu):
    import cupy
    info = {"version": getattr(cupy, "__version__", None), "file": getattr(cupy, "__file__", None)}
    build = {"cuda_build": True}
    runtime = {}
    rt = cupy.cuda.runtime
    attempt(info, "runtime_version", lambda: dotted_cuda(rt.runtimeGetVersion()))
    if info.get("runtime_version"):
        build["cuda"] = info["runtime_version"]  # CuPy links the CUDA runtime statically: its build's CUDA
    attempt(info, "driver_version", lambda: dotted_cuda(rt.driverGetVersion()))
    attempt(info, "device_count", lambda: int(rt.getDeviceCount()))
    cudnn = None
    for name in ("cupy_backends.cuda.libs.cudnn", "cupy.cuda.cudnn"):
        try:
            import importlib
            cudnn = importlib.import_module(name)
            info["cudnn_module"] = name
            break
        except Exception as e:  # noqa: BLE001
            info["cudnn_module_error"] = exc_text(e)
    if cudnn is None:
        build["cudnn_error"] = one_line("this CuPy has no cuDNN module (CuPy 14 dropped it): %s" %
                                        info.get("cudnn_module_error", ""))
    else:
        attempt(build, "cudnn", lambda: dotted(int(cudnn.get_build_version())))
        build["cudnn_source"] = "cudnn.get_build_version()"
        attempt(runtime, "cudnn", lambda: dotted(int(cudnn.getVersion())))
        runtime["cudnn_source"] = "cudnn.getVersion()"
    devices = []
    for i in range(info.get("device_count") or 0):
        d = {"index": i}
        attempt(d, "name", lambda: rt.getDeviceProperties(i)["name"].decode("utf-8", "replace"))
        devices.append(d)

    def gpu_call():
        call = {"what": "cudnnCreate through CuPy" if cudnn is not None
                else "a sum on the GPU (this CuPy has no cuDNN module)"}
        try:
            if cudnn is not None:
                h = cudnn.create()
                cudnn.destroy(h)
                call["ok"] = True
            else:
                call["ok"] = int(cupy.arange(10).sum()) == 45
        except Exception as e:  # noqa: BLE001
            call["ok"] = False
            call["error"] = exc_text(e)
        return call

    call = ("gpu-call", gpu_call) if gpu and devices else None
    return info, build, runtime, devices, call


PROBES = {"torch": probe_torch, "tensorflow": probe_tensorflow, "jax": probe_jax, "onnxruntime": probe_onnxruntime,
          "cupy": probe_cupy}


def framework(name, gpu):
    import time
    fact("framework", name)
    begin("import")
    t = time.time()
    try:
        __import__(name)
        fact("import", {"ok": True, "seconds": round(time.time() - t, 3)})
    except BaseException as e:  # noqa: BLE001 - SystemExit from a broken package too
        fact("import", {"ok": False, "error": exc_text(e), "seconds": round(time.time() - t, 3)})
        end("import")
        report_modules("after-import")
        return
    end("import")
    mod = sys.modules.get(name)
    if mod is not None and getattr(mod, "__file__", None) is None:
        # a directory without __init__.py imports as an empty namespace
        # package: what an uninstall that left files behind gives
        where = ", ".join(str(p) for p in (getattr(mod, "__path__", None) or []))
        fact("query_error", "%s is a namespace package (a directory without __init__.py: %s), not an installed "
                            "framework: files an uninstall left behind?" % (name, where or "unknown"))
        report_modules("after-import")
        return
    begin("query")
    try:
        info, build, runtime, devices, call = PROBES[name](gpu)
    except BaseException as e:  # noqa: BLE001
        fact("query_error", exc_text(e))
        end("query")
        report_modules("after-import")
        return
    end("query")
    # Everything known so far goes out before the GPU call, which may crash
    # or hang: the tool then still has the facts, and the step it died in.
    fact("info", info)
    fact("build", build)
    fact("runtime", runtime)
    fact("devices", devices)
    report_modules("after-import")
    if call is None:
        return
    step, fn = call
    begin(step)
    try:
        result = fn()
    except BaseException as e:  # noqa: BLE001 - SystemExit from the framework too
        result = {"ok": False, "error": exc_text(e)}
    end(step)
    fact("gpu_call", result)
    fact("runtime", runtime)  # the call may have read what was not known before
    report_modules("after-gpu-call" if gpu else "after-import")


def main(argv):
    open_channel()
    emit({"t": "fact", "k": "probe", "v": {"script": 1}})
    if sys.version_info < (3, 6):
        fact("python", {"executable": sys.executable, "version": "%d.%d.%d" % tuple(sys.version_info[:3]),
                        "unsupported": "Python older than 3.6 is not probed"})
        return 0
    no_network()
    if len(argv) >= 1 and argv[0] == "survey":
        survey()
        return 0
    if len(argv) >= 2 and argv[0] == "framework" and argv[1] in PROBES:
        framework(argv[1], "--gpu" in argv[2:])
        return 0
    fact("usage_error", "usage: fwprobe.py survey | framework NAME [--gpu]")
    return 2


if __name__ == "__main__":
    rc = main(sys.argv[1:])
    emit({"t": "done"})
    sys.exit(rc)
