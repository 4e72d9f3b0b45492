#!/usr/bin/env python3
"""deploy/kubernetes and deploy/container checked here, without a cluster or a container engine.

1. Every manifest parses (python3-yaml) and is valid against the Kubernetes API types of Debian's
   python3-kubernetes (its generated models: each object's field names and types, and its required fields, from
   the Kubernetes OpenAPI schema): an unknown field, a wrong type or a missing required field fails. The
   validator is checked on broken copies first. Exit 77 only when python3-kubernetes is not installed.
2. The pods: the host's root read-only at /host (hostPath /), readOnlyRootFilesystem, not privileged, no
   privilege escalation, every capability dropped and none added, not root, no API token, GPU nodes only
   (nvidia.com/gpu.present=true, the nvidia.com/gpu taint tolerated), resource limits; the Containerfile's user,
   entrypoint and default command.
3. The image's steps (scripts/fleet/build-image.sh, a release tarball made here with cpack unless --tarball):
   `doctor --root` from the staged image on a fixture tree copied under a container-like root's host/ gives the
   same installations and findings as --root of the tree itself, and nothing of the container's own files.
usage: test_k8s.py --exe CUDNNCTL --build BUILD_DIR --fixtures FIXTURES_DIR --source SOURCE_DIR [--tarball TGZ]
"""
import argparse, copy, json, os, re, shutil, subprocess, sys, tempfile

failures = []


def check(cond, what):
    print(("  ok   " if cond else "  FAIL ") + what)
    if not cond:
        failures.append(what)


try:
    import yaml
    import kubernetes.client.models as models
except ImportError as e:
    print(f"SKIP: {e} (scripts/deps.sh installs python3-yaml and python3-kubernetes)")
    sys.exit(77)

SCALARS = {"str": str, "int": int, "bool": bool, "float": (int, float)}


def model_class(api_version, kind):
    version = api_version.split("/")[-1]
    return getattr(models, version[0].upper() + version[1:] + kind, None)


def validate(value, typ, path, errors):
    """value (from YAML) against a python3-kubernetes type name: 'str', 'list[V1Container]', 'V1PodSpec'..."""
    m = re.fullmatch(r"list\[(.*)\]", typ)
    if m:
        if not isinstance(value, list):
            errors.append(f"{path}: a list wanted")
            return
        for i, v in enumerate(value):
            validate(v, m.group(1), f"{path}[{i}]", errors)
        return
    m = re.fullmatch(r"dict\((\w+), (.*)\)", typ)
    if m:
        if not isinstance(value, dict):
            errors.append(f"{path}: a map wanted")
            return
        for k, v in value.items():
            validate(v, m.group(2), f"{path}.{k}", errors)
        return
    if typ == "object":  # IntOrString, Quantity, raw: anything
        return
    if typ in SCALARS:
        ok = isinstance(value, SCALARS[typ]) and not (typ != "bool" and isinstance(value, bool))
        if not ok:
            errors.append(f"{path}: {typ} wanted, got {type(value).__name__} {value!r}")
        return
    if typ in ("datetime", "date"):
        if not isinstance(value, str):
            errors.append(f"{path}: a {typ} string wanted")
        return
    cls = getattr(models, typ, None)
    if cls is None:
        errors.append(f"{path}: unknown type {typ}")
        return
    if not isinstance(value, dict):
        errors.append(f"{path}: an object ({typ}) wanted")
        return
    by_json = {j: p for p, j in cls.attribute_map.items()}
    for k, v in value.items():
        if k not in by_json:
            errors.append(f"{path}.{k}: no such field in {typ}")
            continue
        validate(v, cls.openapi_types[by_json[k]], f"{path}.{k}", errors)
    # the required fields: the model's setters refuse None for them
    try:
        cls(**{by_json[k]: v for k, v in value.items() if k in by_json})
    except ValueError as e:
        errors.append(f"{path} ({typ}): {e}")
    except TypeError:
        pass


def validate_doc(doc):
    errors = []
    if not isinstance(doc, dict) or "apiVersion" not in doc or "kind" not in doc:
        return ["not a Kubernetes object (apiVersion, kind)"]
    cls = model_class(doc["apiVersion"], doc["kind"])
    if cls is None:
        return [f"unknown kind {doc['apiVersion']} {doc['kind']}"]
    validate(doc, cls.__name__, doc["kind"], errors)
    return errors


def pod_checks(name, doc, accounts):
    spec = doc["spec"]["template"]["spec"]
    print(f"{name}: {doc['kind']} {doc['metadata']['name']}: the pod")
    mounts = {}
    for c in spec["containers"] + spec.get("initContainers", []):
        for m in c.get("volumeMounts", []):
            mounts.setdefault(m["name"], []).append((c["name"], m))
    vols = {v["name"]: v for v in spec.get("volumes", [])}
    host = [v for v in vols.values() if v.get("hostPath", {}).get("path") == "/"]
    check(len(host) == 1, "the host's root is a hostPath volume")
    hm = mounts.get(host[0]["name"], []) if host else []
    check(hm and all(m["mountPath"] == "/host" and m.get("readOnly") is True for _, m in hm),
          "mounted read-only at /host in every container that mounts it")
    others = [v for v in vols.values() if "hostPath" in v and v not in host]
    check(not others, "no other hostPath volume")
    check(not spec.get("hostNetwork") and not spec.get("hostPID") and not spec.get("hostIPC"),
          "no host network, PID or IPC namespace")
    psc = spec.get("securityContext", {})
    check(spec.get("automountServiceAccountToken") is False, "no service account token mounted")
    check(spec.get("serviceAccountName") in accounts, "its service account is in the file")
    check(spec.get("nodeSelector", {}).get("nvidia.com/gpu.present") == "true",
          "nodeSelector nvidia.com/gpu.present=true")
    check(any(t.get("key") == "nvidia.com/gpu" for t in spec.get("tolerations", [])),
          "tolerates the nvidia.com/gpu taint")
    for c in spec["containers"] + spec.get("initContainers", []):
        sc = c.get("securityContext", {})
        check(sc.get("readOnlyRootFilesystem") is True, f"{c['name']}: readOnlyRootFilesystem")
        check(not sc.get("privileged"), f"{c['name']}: not privileged")
        check(sc.get("allowPrivilegeEscalation") is False, f"{c['name']}: no privilege escalation")
        caps = sc.get("capabilities", {})
        check(caps.get("drop") == ["ALL"] and not caps.get("add"), f"{c['name']}: every capability dropped, none added")
        nonroot = sc.get("runAsNonRoot", psc.get("runAsNonRoot"))
        uid = sc.get("runAsUser", psc.get("runAsUser"))
        check(nonroot is True and uid not in (None, 0), f"{c['name']}: runs as a non-root user ({uid})")
        lim = c.get("resources", {}).get("limits", {})
        check("cpu" in lim and "memory" in lim, f"{c['name']}: cpu and memory limits")
        check("nvidia.com/gpu" not in lim, f"{c['name']}: no GPU taken (the static doctor needs none)")
        script = " ".join(c.get("command", []) + c.get("args", []))
        check("doctor --root /host --json" in script, f"{c['name']}: runs doctor --root /host --json")


def manifests(src):
    print("== the manifests: parsed, validated against the Kubernetes API types (python3-kubernetes "
          f"{getattr(__import__('kubernetes'), '__version__', '?')})")
    # the validator itself: broken copies are refused
    ds = next(d for d in yaml.safe_load_all(open(os.path.join(src, "deploy/kubernetes/daemonset.yaml")))
              if d["kind"] == "DaemonSet")
    bad = copy.deepcopy(ds)
    bad["spec"]["template"]["spec"]["containers"][0]["bogusField"] = 1
    check(any("bogusField" in e for e in validate_doc(bad)), "validator: an unknown field is refused")
    bad = copy.deepcopy(ds)
    bad["spec"]["template"]["spec"]["containers"][0]["securityContext"]["readOnlyRootFilesystem"] = "yes"
    check(any("readOnlyRootFilesystem" in e for e in validate_doc(bad)), "validator: a wrong type is refused")
    bad = copy.deepcopy(ds)
    del bad["spec"]["selector"]
    check(any("selector" in e for e in validate_doc(bad)), "validator: a missing required field is refused")
    bad = copy.deepcopy(ds)
    del bad["spec"]["template"]["spec"]["containers"][0]["name"]
    check(any("name" in e for e in validate_doc(bad)), "validator: a container without its name is refused")
    for name in ("daemonset.yaml", "job.yaml"):
        path = os.path.join(src, "deploy/kubernetes", name)
        docs = [d for d in yaml.safe_load_all(open(path)) if d is not None]
        kinds = [d["kind"] for d in docs]
        print(f"{name}: {', '.join(kinds)}")
        for d in docs:
            errors = validate_doc(d)
            check(not errors, f"{name}: {d['kind']} {d['metadata']['name']} is valid" +
                  ("".join("\n         " + e for e in errors)))
        accounts = {d["metadata"]["name"] for d in docs if d["kind"] == "ServiceAccount"}
        check(all(d.get("automountServiceAccountToken") is False for d in docs if d["kind"] == "ServiceAccount"),
              f"{name}: the service account mounts no token")
        check(not any(d["kind"] in ("Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding") for d in docs),
              f"{name}: no role or binding: no API access")
        workloads = [d for d in docs if d["kind"] in ("DaemonSet", "Job")]
        check(len(workloads) == 1, f"{name}: one workload")
        for w in workloads:
            pod_checks(name, w, accounts)
    cf = open(os.path.join(src, "deploy/container/Containerfile")).read()
    print("Containerfile")
    check(re.search(r"^FROM debian:12-slim$", cf, re.M) is not None, "FROM debian:12-slim")
    check(re.search(r"^ADD cudnnctl-\$\{VERSION\}-linux-x86_64\.tar\.gz /opt/$", cf, re.M) is not None,
          "ADD of the release tarball into /opt/")
    check(re.search(r"^USER 65532", cf, re.M) is not None, "USER 65532")
    check('ENTRYPOINT ["cudnnctl"]' in cf, "ENTRYPOINT cudnnctl")
    check('CMD ["doctor", "--root", "/host", "--json"]' in cf, "CMD doctor --root /host --json")


def strip(doc, root):
    """the document with what depends on where the tree is and on time taken out"""
    text = json.dumps(doc, sort_keys=True).replace(json.dumps(root)[1:-1], "<ROOT>")
    text = re.sub(r'"(gather_ms|wall_ms|elapsed_ms|ms)": \d+', r'"\1": 0', text)
    return json.loads(text)


def image(args):
    print("== the image's steps (scripts/fleet/build-image.sh) and doctor --root on a host-like mount")
    tree = os.path.abspath(os.path.join(args.fixtures, "trees", "distro"))
    if not os.path.isdir(tree):
        check(False, f"fixture tree {tree} exists")
        return
    with tempfile.TemporaryDirectory(prefix="cudnnctl-k8s.") as tmp:
        os.chmod(tmp, 0o755)
        tarball = args.tarball
        if not tarball:
            out = os.path.join(tmp, "pkg")
            r = subprocess.run(["cpack", "-G", "TGZ", "-B", out], cwd=args.build, capture_output=True, text=True)
            found = [f for f in os.listdir(out) if f.endswith("-linux-x86_64.tar.gz")] if r.returncode == 0 else []
            check(bool(found), "cpack -G TGZ made the release tarball" + ("" if found else "\n" + r.stdout[-2000:] + r.stderr[-2000:]))
            if not found:
                return
            tarball = os.path.join(out, found[0])
        # a container's root: its own files (a cuDNN of its own, that must not be reported) and the host at host/
        ctr = os.path.join(tmp, "ctr")
        decoy = os.path.join(ctr, "usr/lib/x86_64-linux-gnu")
        os.makedirs(decoy)
        open(os.path.join(decoy, "libcudnn.so.8.9.7-containerdecoy"), "wb").write(b"\x7fELF")
        shutil.copytree(tree, os.path.join(ctr, "host"), symlinks=True)
        host = os.path.join(ctr, "host")
        for d, dirs, files in os.walk(tmp):
            for x in dirs:
                os.chmod(os.path.join(d, x), 0o755)
        staging = os.path.join(tmp, "staging")
        r = subprocess.run([os.path.join(args.source, "scripts/fleet/build-image.sh"), tarball, host, staging],
                           capture_output=True, text=True, timeout=600)
        print("".join("  | " + l + "\n" for l in (r.stdout + r.stderr).splitlines()), end="")
        check(r.returncode == 0, f"build-image.sh exited 0 (got {r.returncode})")
        if r.returncode != 0:
            return
        got = json.load(open(os.path.join(staging, "tmp/doctor.json")))
        ref_run = subprocess.run([args.exe, "doctor", "--root", tree, "--json", "--quiet"], capture_output=True, text=True)
        check(ref_run.returncode in (0, 1), f"doctor --root of the tree itself: status {ref_run.returncode}")
        ref = json.loads(ref_run.stdout)
        check(got["command"] == "doctor" and got["mode"] == "static", "the staged image's doctor: a static doctor document")
        check(got["machine"]["root"] == host, f"its root is the host mount ({got['machine']['root']})")
        gi = [(i["prefix"], i.get("full_version")) for i in got["facts"]["list"]["installations"]]
        ri = [(i["prefix"], i.get("full_version")) for i in ref["facts"]["list"]["installations"]]
        check(gi and gi == ri, f"the same installations as --root of the tree itself: {gi}")
        check(sorted(f["id"] for f in got["findings"]) == sorted(f["id"] for f in ref["findings"]),
              "the same findings")
        a, b = strip(got, host), strip(ref, tree)
        diff = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
        check(not diff, "the same document, the root's path and timings aside" + (f" (differs in {diff})" if diff else ""))
        text = json.dumps(got)
        check("containerdecoy" not in text, "nothing of the container's own files (its decoy cuDNN) in it")
        check(text.replace(host, "") .find(ctr) < 0, "no path of the container's root outside the host mount")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--tarball")
    args = ap.parse_args()
    args.exe = os.path.abspath(args.exe)
    manifests(args.source)
    image(args)
    if failures:
        print(f"FAIL: {len(failures)} checks failed")
        for f in failures:
            print("  " + f.splitlines()[0])
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
