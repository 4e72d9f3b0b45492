/* The keys of the fact documents, declared once (views.h says what comes
 * from these lists). One list per kind of object:
 *
 *   K(view, field, "key", KIND, FLAGS)
 *
 * KIND: STR, INT, BOOL, NUM, ARR, OBJ, ANY. FLAGS: CC_VW_REQ (every
 * producer writes it: a document without it is reported), CC_VW_OPT, and
 * CC_VW_NULL (null is one of its values). The C field is the key unless the
 * key is not a C name. A view holds at most 64 keys.
 *
 * docs/json.md describes each view under the name in CC_SCHEMA_VIEWS (its
 * second column); tests/docs/test_schema.py fails when a key is here and
 * not there, or in one of its key tables and not here. To add a key: add it
 * here, write it with CC_K(view, field), document it, read it from the view. */
#ifndef CC_FACTS_SCHEMA_H
#define CC_FACTS_SCHEMA_H

/* VERSION: one version evidence (inspect, list, which, deps). */
#define CC_SCHEMA_version(K)                                                                                           \
        K(version, component, "component", STR, CC_VW_REQ)                                                             \
        K(version, source, "source", STR, CC_VW_REQ)                                                                   \
        K(version, version, "version", STR, CC_VW_REQ)                                                                 \
        K(version, file, "file", STR, CC_VW_OPT)                                                                       \
        K(version, member, "member", STR, CC_VW_OPT)                                                                   \
        K(version, symbol, "symbol", STR, CC_VW_OPT)                                                                   \
        K(version, sublibrary, "sublibrary", STR, CC_VW_OPT)                                                           \
        K(version, package, "package", STR, CC_VW_OPT)                                                                 \
        K(version, cuda_major, "cuda_major", INT, CC_VW_OPT | CC_VW_NULL)                                              \
        K(version, warning, "warning", STR, CC_VW_OPT)                                                                 \
        K(version, error, "error", STR, CC_VW_OPT)

/* INSTALLATION of `list`. */
#define CC_SCHEMA_installation(K)                                                                                      \
        K(installation, id, "id", INT, CC_VW_REQ)                                                                      \
        K(installation, prefix, "prefix", STR, CC_VW_REQ)                                                              \
        K(installation, aliases, "aliases", ARR, CC_VW_OPT)                                                            \
        K(installation, system, "system", STR, CC_VW_OPT)                                                              \
        K(installation, majors, "majors", ARR, CC_VW_REQ)                                                              \
        K(installation, provenance, "provenance", OBJ, CC_VW_REQ)                                                      \
        K(installation, version, "version", STR, CC_VW_REQ | CC_VW_NULL)                                               \
        K(installation, full_version, "full_version", STR, CC_VW_OPT | CC_VW_NULL)                                     \
        K(installation, versions, "versions", ARR, CC_VW_OPT)                                                          \
        K(installation, disagreements, "disagreements", ARR, CC_VW_OPT)                                                \
        K(installation, counts, "counts", OBJ, CC_VW_OPT)                                                              \
        K(installation, directories, "directories", ARR, CC_VW_OPT)                                                    \
        K(installation, cuda_variants, "cuda_variants", ARR, CC_VW_OPT)                                                \
        K(installation, files, "files", ARR, CC_VW_OPT)                                                                \
        K(installation, sets, "sets", ARR, CC_VW_OPT)                                                                  \
        K(installation, problems, "problems", ARR, CC_VW_OPT)                                                          \
        K(installation, notes, "notes", ARR, CC_VW_OPT)

/* PROVENANCE of an installation. */
#define CC_SCHEMA_provenance(K)                                                                                        \
        K(provenance, kind, "kind", STR, CC_VW_REQ)                                                                    \
        K(provenance, evidence, "evidence", ARR, CC_VW_OPT)                                                            \
        K(provenance, toolkit, "toolkit", OBJ, CC_VW_OPT)                                                              \
        K(provenance, copied_in, "copied_in", BOOL, CC_VW_OPT)                                                         \
        K(provenance, packages, "packages", ARR, CC_VW_OPT)                                                            \
        K(provenance, location, "location", STR, CC_VW_OPT)                                                            \
        K(provenance, owner_known, "owner_known", BOOL, CC_VW_OPT)                                                     \
        K(provenance, unowned, "unowned", ARR, CC_VW_OPT)                                                              \
        K(provenance, site_packages, "site_packages", STR, CC_VW_OPT)                                                  \
        K(provenance, bundled_in, "bundled_in", OBJ, CC_VW_OPT)                                                        \
        K(provenance, archive, "archive", OBJ, CC_VW_OPT)                                                              \
        K(provenance, installer, "installer", OBJ, CC_VW_OPT)                                                          \
        K(provenance, uninstall_entries, "uninstall_entries", ARR, CC_VW_OPT)

/* FILE of an installation. */
#define CC_SCHEMA_file(K)                                                                                              \
        K(file, path, "path", STR, CC_VW_REQ)                                                                          \
        K(file, name, "name", STR, CC_VW_OPT)                                                                          \
        K(file, type, "type", STR, CC_VW_OPT)                                                                          \
        K(file, kind, "kind", STR, CC_VW_OPT)                                                                          \
        K(file, role, "role", STR, CC_VW_OPT)                                                                          \
        K(file, major, "major", INT, CC_VW_OPT | CC_VW_NULL)                                                           \
        K(file, name_version, "name_version", STR, CC_VW_OPT | CC_VW_NULL)                                             \
        K(file, size, "size", INT, CC_VW_OPT)                                                                          \
        K(file, content, "content", STR, CC_VW_OPT)                                                                    \
        K(file, soname, "soname", STR, CC_VW_OPT | CC_VW_NULL)                                                         \
        K(file, versions, "versions", ARR, CC_VW_OPT)                                                                  \
        K(file, error, "error", STR, CC_VW_OPT | CC_VW_NULL)                                                           \
        K(file, link, "link", STR, CC_VW_OPT)                                                                          \
        K(file, chain, "chain", ARR, CC_VW_OPT)                                                                        \
        K(file, resolves_to, "resolves_to", STR, CC_VW_OPT | CC_VW_NULL)                                               \
        K(file, link_state, "link_state", STR, CC_VW_OPT)

/* A problem of an installation. */
#define CC_SCHEMA_problem(K)                                                                                           \
        K(problem, kind, "kind", STR, CC_VW_REQ)                                                                       \
        K(problem, failure_mode, "failure_mode", STR, CC_VW_OPT | CC_VW_NULL)                                          \
        K(problem, summary, "summary", STR, CC_VW_REQ)                                                                 \
        K(problem, paths, "paths", ARR, CC_VW_OPT)

/* RESOLUTION: one name searched the loader's way (which, deps), with what
 * `which` adds to each result. */
#define CC_SCHEMA_resolution(K)                                                                                        \
        K(resolution, name, "name", STR, CC_VW_REQ)                                                                    \
        K(resolution, found, "found", BOOL, CC_VW_REQ)                                                                 \
        K(resolution, path, "path", STR, CC_VW_OPT | CC_VW_NULL)                                                       \
        K(resolution, realpath, "realpath", STR, CC_VW_OPT | CC_VW_NULL)                                               \
        K(resolution, how, "how", STR, CC_VW_OPT)                                                                      \
        K(resolution, origin, "origin", STR, CC_VW_OPT | CC_VW_NULL)                                                   \
        K(resolution, windows_error, "windows_error", INT, CC_VW_OPT | CC_VW_NULL)                                     \
        K(resolution, tried, "tried", ARR, CC_VW_OPT)                                                                  \
        K(resolution, shadowed, "shadowed", ARR, CC_VW_OPT)                                                            \
        K(resolution, notes, "notes", ARR, CC_VW_OPT)                                                                  \
        K(resolution, versions, "versions", ARR, CC_VW_OPT)                                                            \
        K(resolution, installation, "installation", INT, CC_VW_OPT | CC_VW_NULL)                                       \
        K(resolution, installation_version, "installation_version", STR, CC_VW_OPT | CC_VW_NULL)                       \
        K(resolution, installation_prefix, "installation_prefix", STR, CC_VW_OPT | CC_VW_NULL)                         \
        K(resolution, problems, "problems", ARR, CC_VW_OPT)                                                            \
        K(resolution, elsewhere, "elsewhere", ARR, CC_VW_OPT)

/* A place the loader tries (a RESOLUTION's `tried`; `shadowed` adds versions,
 * installation, installation_version and problems). */
#define CC_SCHEMA_step(K)                                                                                              \
        K(step, path, "path", STR, CC_VW_REQ)                                                                          \
        K(step, how, "how", STR, CC_VW_OPT)                                                                            \
        K(step, origin, "origin", STR, CC_VW_OPT | CC_VW_NULL)                                                         \
        K(step, outcome, "outcome", STR, CC_VW_REQ)                                                                    \
        K(step, detail, "detail", STR, CC_VW_OPT | CC_VW_NULL)                                                         \
        K(step, realpath, "realpath", STR, CC_VW_OPT | CC_VW_NULL)                                                     \
        K(step, versions, "versions", ARR, CC_VW_OPT)                                                                  \
        K(step, installation, "installation", INT, CC_VW_OPT | CC_VW_NULL)                                             \
        K(step, installation_version, "installation_version", STR, CC_VW_OPT | CC_VW_NULL)                             \
        K(step, installation_prefix, "installation_prefix", STR, CC_VW_OPT | CC_VW_NULL)                               \
        K(step, problems, "problems", ARR, CC_VW_OPT)

/* NODE of `deps`. */
#define CC_SCHEMA_node(K)                                                                                              \
        K(node, id, "id", INT, CC_VW_REQ)                                                                              \
        K(node, path, "path", STR, CC_VW_REQ)                                                                          \
        K(node, realpath, "realpath", STR, CC_VW_OPT | CC_VW_NULL)                                                     \
        K(node, soname, "soname", STR, CC_VW_OPT | CC_VW_NULL)                                                         \
        K(node, depth, "depth", INT, CC_VW_OPT)                                                                        \
        K(node, parent, "parent", INT, CC_VW_OPT | CC_VW_NULL)                                                         \
        K(node, interpreter, "interpreter", BOOL, CC_VW_OPT)                                                           \
        K(node, preload, "preload", BOOL, CC_VW_OPT)                                                                   \
        K(node, error, "error", STR, CC_VW_OPT | CC_VW_NULL)                                                           \
        K(node, versions, "versions", ARR, CC_VW_OPT)                                                                  \
        K(node, release, "release", STR, CC_VW_OPT)                                                                    \
        K(node, rpath, "rpath", STR, CC_VW_OPT | CC_VW_NULL)                                                           \
        K(node, runpath, "runpath", STR, CC_VW_OPT | CC_VW_NULL)                                                       \
        K(node, nodeflib, "nodeflib", BOOL, CC_VW_OPT)                                                                 \
        K(node, edges, "edges", ARR, CC_VW_OPT)

/* EDGE of a deps node. */
#define CC_SCHEMA_edge(K)                                                                                              \
        K(edge, name, "name", STR, CC_VW_REQ)                                                                          \
        K(edge, kind, "kind", STR, CC_VW_REQ)                                                                          \
        K(edge, source, "source", STR, CC_VW_OPT | CC_VW_NULL)                                                         \
        K(edge, candidates, "candidates", ARR, CC_VW_OPT)                                                              \
        K(edge, resolved_name, "resolved_name", STR, CC_VW_OPT | CC_VW_NULL)                                           \
        K(edge, status, "status", STR, CC_VW_REQ)                                                                      \
        K(edge, node, "node", INT, CC_VW_OPT | CC_VW_NULL)                                                             \
        K(edge, path, "path", STR, CC_VW_OPT | CC_VW_NULL)                                                             \
        K(edge, realpath, "realpath", STR, CC_VW_OPT | CC_VW_NULL)                                                     \
        K(edge, how, "how", STR, CC_VW_OPT | CC_VW_NULL)                                                               \
        K(edge, origin, "origin", STR, CC_VW_OPT | CC_VW_NULL)                                                         \
        K(edge, windows_error, "windows_error", INT, CC_VW_OPT | CC_VW_NULL)                                           \
        K(edge, notes, "notes", ARR, CC_VW_OPT)                                                                        \
        K(edge, tried, "tried", ARR, CC_VW_OPT)

/* A layer of `verify` and its CHECKs. */
#define CC_SCHEMA_layer(K)                                                                                             \
        K(layer, id, "id", STR, CC_VW_REQ)                                                                             \
        K(layer, title, "title", STR, CC_VW_OPT)                                                                       \
        K(layer, status, "status", STR, CC_VW_REQ)                                                                     \
        K(layer, checks, "checks", ARR, CC_VW_REQ)                                                                     \
        K(layer, cuda_variant, "cuda_variant", STR, CC_VW_OPT)

/* A CHECK's evidence is an object, but the version-checks check's is the
 * probe's array of checks, the probe check's its output tail (or null), the
 * handle check's "not-exported" when cudnnCreate is not exported. */
#define CC_SCHEMA_check(K)                                                                                             \
        K(check, id, "id", STR, CC_VW_REQ)                                                                             \
        K(check, title, "title", STR, CC_VW_OPT)                                                                       \
        K(check, status, "status", STR, CC_VW_REQ)                                                                     \
        K(check, summary, "summary", STR, CC_VW_REQ)                                                                   \
        K(check, evidence, "evidence", ANY, CC_VW_OPT)

/* PROBE / RUN: how a child process went (verify's probes, the frameworks'
 * children). */
#define CC_SCHEMA_probe(K)                                                                                             \
        K(probe, ran, "ran", BOOL, CC_VW_REQ)                                                                          \
        K(probe, error, "error", STR, CC_VW_OPT | CC_VW_NULL)                                                          \
        K(probe, how, "how", STR, CC_VW_OPT)                                                                           \
        K(probe, exit, "exit", INT, CC_VW_OPT | CC_VW_NULL)                                                            \
        K(probe, signal, "signal", INT, CC_VW_OPT | CC_VW_NULL)                                                        \
        K(probe, crashed, "crashed", BOOL, CC_VW_OPT)                                                                  \
        K(probe, timed_out, "timed_out", BOOL, CC_VW_OPT)                                                              \
        K(probe, complete, "complete", BOOL, CC_VW_OPT)                                                                \
        K(probe, wall_ms, "wall_ms", INT, CC_VW_OPT)                                                                   \
        K(probe, died_in, "died_in", STR, CC_VW_OPT | CC_VW_NULL)                                                      \
        K(probe, facts, "facts", OBJ, CC_VW_OPT)                                                                       \
        K(probe, gpu, "gpu", ARR, CC_VW_OPT)                                                                           \
        K(probe, printed_bytes, "printed_bytes", INT, CC_VW_OPT)                                                       \
        K(probe, output_tail, "output_tail", STR, CC_VW_OPT | CC_VW_NULL)                                              \
        K(probe, protocol_cut, "protocol_cut", BOOL, CC_VW_OPT)                                                        \
        K(probe, bad_lines, "bad_lines", INT, CC_VW_OPT)

/* FRAMEWORK of `frameworks` and its verdicts. */
#define CC_SCHEMA_framework(K)                                                                                         \
        K(framework, name, "name", STR, CC_VW_REQ)                                                                     \
        K(framework, origin, "origin", STR, CC_VW_OPT | CC_VW_NULL)                                                    \
        K(framework, distributions, "distributions", ARR, CC_VW_OPT)                                                   \
        K(framework, probe, "probe", OBJ, CC_VW_OPT)                                                                   \
        K(framework, state, "state", STR, CC_VW_REQ)                                                                   \
        K(framework, error, "error", STR, CC_VW_OPT | CC_VW_NULL)                                                      \
        K(framework, output_tail, "output_tail", STR, CC_VW_OPT | CC_VW_NULL)                                          \
        K(framework, import, "import", OBJ, CC_VW_OPT)                                                                 \
        K(framework, info, "info", OBJ, CC_VW_OPT)                                                                     \
        K(framework, build, "build", OBJ, CC_VW_OPT)                                                                   \
        K(framework, runtime, "runtime", OBJ, CC_VW_OPT)                                                               \
        K(framework, devices, "devices", ARR, CC_VW_OPT)                                                               \
        K(framework, gpu_call, "gpu_call", OBJ, CC_VW_OPT)                                                             \
        K(framework, modules, "modules", OBJ, CC_VW_OPT)                                                               \
        K(framework, loaded_cudnn, "loaded_cudnn", ARR, CC_VW_OPT)                                                     \
        K(framework, cudnn, "cudnn", OBJ, CC_VW_OPT)                                                                   \
        K(framework, verdicts, "verdicts", ARR, CC_VW_OPT)                                                             \
        K(framework, verdict, "verdict", STR, CC_VW_OPT)

#define CC_SCHEMA_verdict(K)                                                                                           \
        K(verdict, id, "id", STR, CC_VW_REQ)                                                                           \
        K(verdict, status, "status", STR, CC_VW_REQ)                                                                   \
        K(verdict, summary, "summary", STR, CC_VW_REQ)                                                                 \
        K(verdict, fix, "fix", STR, CC_VW_OPT | CC_VW_NULL)                                                            \
        K(verdict, expected, "expected", ANY, CC_VW_OPT | CC_VW_NULL)                                                  \
        K(verdict, expected_kind, "expected_kind", STR, CC_VW_OPT | CC_VW_NULL)

/* A search path of the host (`LD_LIBRARY_PATH`, `PATH`) and its entries. */
#define CC_SCHEMA_search_path(K)                                                                                       \
        K(search_path, variable, "variable", STR, CC_VW_REQ)                                                           \
        K(search_path, length, "length", INT, CC_VW_OPT)                                                               \
        K(search_path, entries, "entries", ARR, CC_VW_REQ)

#define CC_SCHEMA_path_entry(K)                                                                                        \
        K(path_entry, index, "index", INT, CC_VW_REQ)                                                                  \
        K(path_entry, entry, "entry", STR, CC_VW_REQ)                                                                  \
        K(path_entry, kind, "kind", STR, CC_VW_REQ)                                                                    \
        K(path_entry, exists, "exists", BOOL, CC_VW_OPT)                                                               \
        K(path_entry, is_dir, "is_dir", BOOL, CC_VW_OPT)                                                               \
        K(path_entry, canonical, "canonical", STR, CC_VW_OPT | CC_VW_NULL)                                             \
        K(path_entry, mode, "mode", INT, CC_VW_OPT | CC_VW_NULL)                                                       \
        K(path_entry, world_writable, "world_writable", BOOL, CC_VW_OPT | CC_VW_NULL)                                  \
        K(path_entry, reason, "reason", STR, CC_VW_OPT | CC_VW_NULL)

/* A CUDA toolkit the doctor found (facts/host/toolkits). */
#define CC_SCHEMA_toolkit(K)                                                                                           \
        K(toolkit, prefix, "prefix", STR, CC_VW_REQ)                                                                   \
        K(toolkit, aliases, "aliases", ARR, CC_VW_OPT)                                                                 \
        K(toolkit, version, "version", STR, CC_VW_OPT | CC_VW_NULL)                                                    \
        K(toolkit, version_source, "version_source", STR, CC_VW_OPT | CC_VW_NULL)                                      \
        K(toolkit, nvcc, "nvcc", STR, CC_VW_OPT | CC_VW_NULL)

/* The doctor's deps and verify entries (facts/deps, facts/verify). */
#define CC_SCHEMA_deps_entry(K)                                                                                        \
        K(deps_entry, installation, "installation", INT, CC_VW_REQ)                                                    \
        K(deps_entry, target, "target", STR, CC_VW_OPT | CC_VW_NULL)                                                   \
        K(deps_entry, document, "document", OBJ, CC_VW_REQ | CC_VW_NULL)                                               \
        K(deps_entry, error, "error", STR, CC_VW_OPT | CC_VW_NULL)

#define CC_SCHEMA_verify_entry(K)                                                                                      \
        K(verify_entry, installation, "installation", INT, CC_VW_REQ)                                                  \
        K(verify_entry, role, "role", STR, CC_VW_REQ)                                                                  \
        K(verify_entry, document, "document", OBJ, CC_VW_REQ | CC_VW_NULL)                                             \
        K(verify_entry, error, "error", STR, CC_VW_OPT | CC_VW_NULL)

/* FINDING and AREA of `doctor`. */
#define CC_SCHEMA_finding(K)                                                                                           \
        K(finding, id, "id", STR, CC_VW_REQ)                                                                           \
        K(finding, severity, "severity", STR, CC_VW_REQ)                                                               \
        K(finding, area, "area", STR, CC_VW_REQ)                                                                       \
        K(finding, summary, "summary", STR, CC_VW_REQ)                                                                 \
        K(finding, evidence, "evidence", OBJ, CC_VW_REQ)                                                               \
        K(finding, fix, "fix", STR, CC_VW_OPT | CC_VW_NULL)                                                            \
        K(finding, catalog, "catalog", OBJ, CC_VW_OPT | CC_VW_NULL)

#define CC_SCHEMA_area(K)                                                                                              \
        K(area, id, "id", STR, CC_VW_REQ)                                                                              \
        K(area, title, "title", STR, CC_VW_REQ)                                                                        \
        K(area, status, "status", STR, CC_VW_REQ)                                                                      \
        K(area, summary, "summary", STR, CC_VW_REQ)                                                                    \
        K(area, findings, "findings", ARR, CC_VW_REQ)

/* ---- views for the installation, loader and hygiene checks (group A) ---- */

/* A doctor document (`doctor --json`, what `--facts` reads) after the
 * header keys, and the machine of every document's header. */
#define CC_SCHEMA_doctor(K)                                                                                            \
        K(doctor, schema_version, "schema_version", INT, CC_VW_OPT)                                                    \
        K(doctor, tool, "tool", STR, CC_VW_OPT)                                                                        \
        K(doctor, tool_version, "tool_version", STR, CC_VW_OPT)                                                        \
        K(doctor, command, "command", STR, CC_VW_REQ)                                                                  \
        K(doctor, machine, "machine", OBJ, CC_VW_REQ)                                                                  \
        K(doctor, mode, "mode", STR, CC_VW_OPT)                                                                        \
        K(doctor, gpu_requested, "gpu_requested", STR, CC_VW_OPT)                                                      \
        K(doctor, rechecked, "rechecked", BOOL, CC_VW_OPT)                                                             \
        K(doctor, facts, "facts", OBJ, CC_VW_REQ)                                                                      \
        K(doctor, areas, "areas", ARR, CC_VW_OPT)                                                                      \
        K(doctor, findings, "findings", ARR, CC_VW_OPT)                                                                \
        K(doctor, summary, "summary", OBJ, CC_VW_OPT)

#define CC_SCHEMA_machine(K)                                                                                           \
        K(machine, system, "system", STR, CC_VW_REQ)                                                                   \
        K(machine, root, "root", STR, CC_VW_REQ | CC_VW_NULL)                                                          \
        K(machine, live, "live", BOOL, CC_VW_REQ)                                                                      \
        K(machine, cwd, "cwd", STR, CC_VW_OPT)                                                                         \
        K(machine, cwd_source, "cwd_source", STR, CC_VW_OPT)                                                           \
        K(machine, environment, "environment", STR, CC_VW_OPT)                                                         \
        K(machine, notes, "notes", ARR, CC_VW_OPT)

/* The common keys of a FINDING's evidence (the others are each check's own). */
#define CC_SCHEMA_finding_evidence(K)                                                                                  \
        K(finding_evidence, installation, "installation", INT, CC_VW_OPT)                                              \
        K(finding_evidence, instances, "instances", ARR, CC_VW_OPT)                                                    \
        K(finding_evidence, also, "also", ARR, CC_VW_OPT)

/* The body of `which --json`. */
#define CC_SCHEMA_which_doc(K)                                                                                         \
        K(which_doc, queries, "queries", ARR, CC_VW_REQ)                                                               \
        K(which_doc, names, "names", ARR, CC_VW_REQ)                                                                   \
        K(which_doc, from, "from", STR, CC_VW_OPT)                                                                     \
        K(which_doc, loader, "loader", OBJ, CC_VW_REQ)                                                                 \
        K(which_doc, searched, "searched", STR, CC_VW_OPT)                                                             \
        K(which_doc, discovery_error, "discovery_error", STR, CC_VW_OPT)                                               \
        K(which_doc, results, "results", ARR, CC_VW_REQ)                                                               \
        K(which_doc, verdict, "verdict", STR, CC_VW_REQ)

/* A deps document's `summary`, and its `cudnn` (a found target only). */
#define CC_SCHEMA_deps_summary(K)                                                                                      \
        K(deps_summary, objects, "objects", INT, CC_VW_REQ)                                                            \
        K(deps_summary, edges, "edges", INT, CC_VW_REQ)                                                                \
        K(deps_summary, missing, "missing", INT, CC_VW_REQ)                                                            \
        K(deps_summary, runtime_missing, "runtime_missing", INT, CC_VW_REQ)                                            \
        K(deps_summary, fails, "fails", INT, CC_VW_REQ)                                                                \
        K(deps_summary, unreadable, "unreadable", INT, CC_VW_REQ)                                                      \
        K(deps_summary, cudnn, "cudnn", OBJ, CC_VW_OPT)

#define CC_SCHEMA_deps_cudnn(K)                                                                                        \
        K(deps_cudnn, directories, "directories", ARR, CC_VW_REQ)                                                      \
        K(deps_cudnn, versions, "versions", ARR, CC_VW_REQ)                                                            \
        K(deps_cudnn, mixed, "mixed", BOOL, CC_VW_REQ)                                                                 \
        K(deps_cudnn, split, "split", BOOL, CC_VW_OPT)                                                                 \
        K(deps_cudnn, target_versions, "target_versions", ARR, CC_VW_OPT)                                              \
        K(deps_cudnn, loaded_versions, "loaded_versions", ARR, CC_VW_OPT)                                              \
        K(deps_cudnn, sets, "sets", ARR, CC_VW_OPT)

/* One directory of a deps summary's cuDNN: the releases of its modules
 * (none when none could be read) and their file names, in load order. */
#define CC_SCHEMA_deps_cudnn_set(K)                                                                                    \
        K(deps_cudnn_set, directory, "directory", STR, CC_VW_REQ)                                                      \
        K(deps_cudnn_set, versions, "versions", ARR, CC_VW_REQ)                                                        \
        K(deps_cudnn_set, files, "files", ARR, CC_VW_REQ)                                                              \
        K(deps_cudnn_set, unknown, "unknown", ARR, CC_VW_OPT)

/* facts/host/include_search: the headers a build with no -I finds. */
#define CC_SCHEMA_include_search(K)                                                                                    \
        K(include_search, dirs, "dirs", ARR, CC_VW_REQ)                                                                \
        K(include_search, cudnn_h, "cudnn_h", STR, CC_VW_REQ | CC_VW_NULL)                                             \
        K(include_search, cudnn_version_h, "cudnn_version_h", STR, CC_VW_REQ | CC_VW_NULL)

/* facts/host/registry_path: PATH as the registry stores it (Windows, live). */
#define CC_SCHEMA_registry_path(K)                                                                                     \
        K(registry_path, key, "key", STR, CC_VW_REQ)                                                                   \
        K(registry_path, value, "value", STR, CC_VW_OPT)                                                               \
        K(registry_path, length, "length", INT, CC_VW_OPT)                                                             \
        K(registry_path, type, "type", STR, CC_VW_OPT)                                                                 \
        K(registry_path, expanded, "expanded", STR, CC_VW_OPT)                                                         \
        K(registry_path, error, "error", STR, CC_VW_OPT)

/* The evidence of verify's `version` check. */
#define CC_SCHEMA_version_evidence(K)                                                                                  \
        K(version_evidence, cudnnGetVersion, "cudnnGetVersion", INT, CC_VW_REQ)                                        \
        K(version_evidence, runtime, "runtime", STR, CC_VW_REQ | CC_VW_NULL)                                           \
        K(version_evidence, cudnnGetProperty, "cudnnGetProperty", STR, CC_VW_REQ | CC_VW_NULL)                         \
        K(version_evidence, header, "header", STR, CC_VW_REQ | CC_VW_NULL)                                             \
        K(version_evidence, cudnnGetMaxDeviceVersion, "cudnnGetMaxDeviceVersion", INT, CC_VW_OPT)

/* ---- views for the runtime and frameworks checks, and the frameworks judge (group B) ---- */

/* The doctor's `facts` object. */
#define CC_SCHEMA_doctor_facts(K)                                                                                      \
        K(doctor_facts, list, "list", OBJ, CC_VW_REQ)                                                                  \
        K(doctor_facts, which, "which", OBJ, CC_VW_REQ)                                                                \
        K(doctor_facts, deps, "deps", ARR, CC_VW_REQ)                                                                  \
        K(doctor_facts, verify, "verify", ARR, CC_VW_REQ)                                                              \
        K(doctor_facts, host, "host", OBJ, CC_VW_REQ)                                                                  \
        K(doctor_facts, frameworks, "frameworks", OBJ, CC_VW_REQ)                                                      \
        K(doctor_facts, gather_ms, "gather_ms", INT, CC_VW_OPT)

/* The doctor's host facts (facts/host); the Windows extras are read by
 * their own checks. */
#define CC_SCHEMA_host(K)                                                                                              \
        K(host, system, "system", STR, CC_VW_REQ)                                                                      \
        K(host, shell, "shell", STR, CC_VW_REQ)                                                                        \
        K(host, name, "name", STR, CC_VW_OPT | CC_VW_NULL)                                                             \
        K(host, env, "env", OBJ, CC_VW_REQ)                                                                            \
        K(host, search_paths, "search_paths", ARR, CC_VW_REQ)                                                          \
        K(host, wsl, "wsl", OBJ, CC_VW_OPT)                                                                            \
        K(host, registry_path, "registry_path", ARR, CC_VW_OPT)                                                        \
        K(host, include_search, "include_search", OBJ, CC_VW_REQ)                                                      \
        K(host, toolkits, "toolkits", ARR, CC_VW_REQ)                                                                  \
        K(host, driver_files, "driver_files", OBJ, CC_VW_REQ)                                                          \
        K(host, windows, "windows", OBJ, CC_VW_OPT)

/* facts/host/env: the variables that matter, those that are set. */
#define CC_SCHEMA_env(K)                                                                                               \
        K(env, PATH, "PATH", STR, CC_VW_OPT)                                                                           \
        K(env, LD_LIBRARY_PATH, "LD_LIBRARY_PATH", STR, CC_VW_OPT)                                                     \
        K(env, LD_PRELOAD, "LD_PRELOAD", STR, CC_VW_OPT)                                                               \
        K(env, CUDA_PATH, "CUDA_PATH", STR, CC_VW_OPT)                                                                 \
        K(env, CUDA_HOME, "CUDA_HOME", STR, CC_VW_OPT)                                                                 \
        K(env, CUDA_ROOT, "CUDA_ROOT", STR, CC_VW_OPT)                                                                 \
        K(env, CUDNN_PATH, "CUDNN_PATH", STR, CC_VW_OPT)                                                               \
        K(env, CUDNN_HOME, "CUDNN_HOME", STR, CC_VW_OPT)                                                               \
        K(env, CUDNN_ROOT, "CUDNN_ROOT", STR, CC_VW_OPT)                                                               \
        K(env, CONDA_PREFIX, "CONDA_PREFIX", STR, CC_VW_OPT)                                                           \
        K(env, VIRTUAL_ENV, "VIRTUAL_ENV", STR, CC_VW_OPT)                                                             \
        K(env, CUDA_VISIBLE_DEVICES, "CUDA_VISIBLE_DEVICES", STR, CC_VW_OPT)                                           \
        K(env, CPATH, "CPATH", STR, CC_VW_OPT)                                                                         \
        K(env, C_INCLUDE_PATH, "C_INCLUDE_PATH", STR, CC_VW_OPT)                                                       \
        K(env, CPLUS_INCLUDE_PATH, "CPLUS_INCLUDE_PATH", STR, CC_VW_OPT)                                               \
        K(env, LIBRARY_PATH, "LIBRARY_PATH", STR, CC_VW_OPT)                                                           \
        K(env, SHELL, "SHELL", STR, CC_VW_OPT)                                                                         \
        K(env, PSModulePath, "PSModulePath", STR, CC_VW_OPT)                                                           \
        K(env, ComSpec, "ComSpec", STR, CC_VW_OPT)                                                                     \
        K(env, TF_FORCE_GPU_ALLOW_GROWTH, "TF_FORCE_GPU_ALLOW_GROWTH", STR, CC_VW_OPT)                                 \
        K(env, CUDA_MODULE_LOADING, "CUDA_MODULE_LOADING", STR, CC_VW_OPT)                                             \
        K(env, PYTHONPATH, "PYTHONPATH", STR, CC_VW_OPT)

/* facts/host/wsl (Linux). */
#define CC_SCHEMA_wsl(K)                                                                                               \
        K(wsl, detected, "detected", BOOL, CC_VW_REQ)                                                                  \
        K(wsl, proc_version, "proc_version", STR, CC_VW_REQ | CC_VW_NULL)

/* facts/host/driver_files: the driver as its files tell it. */
#define CC_SCHEMA_driver_files(K)                                                                                      \
        K(driver_files, files, "files", ARR, CC_VW_REQ)                                                                \
        K(driver_files, kernel_module_version, "kernel_module_version", STR, CC_VW_OPT)                                \
        K(driver_files, proc_version, "proc_version", STR, CC_VW_OPT)                                                  \
        K(driver_files, version, "version", STR, CC_VW_REQ | CC_VW_NULL)                                               \
        K(driver_files, versions_disagree, "versions_disagree", BOOL, CC_VW_REQ)

/* The body of `list --json`. */
#define CC_SCHEMA_list_doc(K)                                                                                          \
        K(list_doc, roots, "roots", ARR, CC_VW_REQ)                                                                    \
        K(list_doc, installations, "installations", ARR, CC_VW_REQ)                                                    \
        K(list_doc, skipped, "skipped", ARR, CC_VW_REQ)                                                                \
        K(list_doc, stats, "stats", OBJ, CC_VW_REQ)                                                                    \
        K(list_doc, notes, "notes", ARR, CC_VW_REQ)

/* A directory of an installation (its `directories`). */
#define CC_SCHEMA_inst_dir(K)                                                                                          \
        K(inst_dir, path, "path", STR, CC_VW_REQ)                                                                      \
        K(inst_dir, in_prefix, "in_prefix", STR, CC_VW_OPT | CC_VW_NULL)                                               \
        K(inst_dir, aliases, "aliases", ARR, CC_VW_OPT)                                                                \
        K(inst_dir, more_aliases, "more_aliases", INT, CC_VW_OPT)

/* A package of a provenance (`packages`). */
#define CC_SCHEMA_package(K)                                                                                           \
        K(package, manager, "manager", STR, CC_VW_REQ)                                                                 \
        K(package, name, "name", STR, CC_VW_REQ | CC_VW_NULL)                                                          \
        K(package, version, "version", STR, CC_VW_REQ | CC_VW_NULL)                                                    \
        K(package, build, "build", STR, CC_VW_OPT) /* conda (group E) */

/* The body of `deps --json`. */
#define CC_SCHEMA_deps_doc(K)                                                                                          \
        K(deps_doc, target, "target", STR, CC_VW_REQ | CC_VW_NULL)                                                     \
        K(deps_doc, target_status, "target_status", STR, CC_VW_OPT)                                                    \
        K(deps_doc, target_resolution, "target_resolution", OBJ, CC_VW_OPT)                                            \
        K(deps_doc, loader, "loader", OBJ, CC_VW_OPT)                                                                  \
        K(deps_doc, nodes, "nodes", ARR, CC_VW_OPT)                                                                    \
        K(deps_doc, summary, "summary", OBJ, CC_VW_OPT)                                                                \
        K(deps_doc, notes, "notes", ARR, CC_VW_OPT)

/* The evidence of verify's `driver` check. */
#define CC_SCHEMA_driver_evidence(K)                                                                                   \
        K(driver_evidence, state, "state", STR, CC_VW_REQ)                                                             \
        K(driver_evidence, library, "library", STR, CC_VW_OPT | CC_VW_NULL)                                            \
        K(driver_evidence, cuda_version, "cuda_version", STR, CC_VW_OPT)                                               \
        K(driver_evidence, nvml_driver_version, "nvml_driver_version", STR, CC_VW_OPT | CC_VW_NULL)                    \
        K(driver_evidence, kernel_module_version, "kernel_module_version", STR, CC_VW_OPT | CC_VW_NULL)                \
        K(driver_evidence, devices, "devices", INT, CC_VW_OPT)                                                         \
        K(driver_evidence, device_list, "device_list", ARR, CC_VW_OPT)

/* The doctor's facts/frameworks: the interpreters, or why none were
 * gathered. */
#define CC_SCHEMA_fw_facts(K)                                                                                          \
        K(fw_facts, interpreters, "interpreters", ARR, CC_VW_OPT)                                                      \
        K(fw_facts, expect, "expect", STR, CC_VW_OPT | CC_VW_NULL)                                                     \
        K(fw_facts, reason, "reason", STR, CC_VW_OPT)

/* INTERPRETER of `frameworks`. */
#define CC_SCHEMA_interpreter(K)                                                                                       \
        K(interpreter, path, "path", STR, CC_VW_REQ)                                                                   \
        K(interpreter, sources, "sources", ARR, CC_VW_REQ)                                                             \
        K(interpreter, aliases, "aliases", ARR, CC_VW_REQ)                                                             \
        K(interpreter, probe, "probe", OBJ, CC_VW_REQ)                                                                 \
        K(interpreter, state, "state", STR, CC_VW_REQ)                                                                 \
        K(interpreter, error, "error", STR, CC_VW_OPT)                                                                 \
        K(interpreter, reason, "reason", STR, CC_VW_OPT)                                                               \
        K(interpreter, output_tail, "output_tail", STR, CC_VW_OPT | CC_VW_NULL)                                        \
        K(interpreter, python, "python", OBJ, CC_VW_OPT)                                                               \
        K(interpreter, distributions, "distributions", ARR, CC_VW_OPT)                                                 \
        K(interpreter, found, "found", OBJ, CC_VW_OPT)                                                                 \
        K(interpreter, frameworks, "frameworks", ARR, CC_VW_OPT)

/* An interpreter's `python`, as the interpreter reports itself. */
#define CC_SCHEMA_python(K)                                                                                            \
        K(python, executable, "executable", STR, CC_VW_OPT | CC_VW_NULL)                                               \
        K(python, real_executable, "real_executable", STR, CC_VW_OPT | CC_VW_NULL)                                     \
        K(python, version, "version", STR, CC_VW_OPT)                                                                  \
        K(python, implementation, "implementation", STR, CC_VW_OPT)                                                    \
        K(python, prefix, "prefix", STR, CC_VW_OPT)                                                                    \
        K(python, base_prefix, "base_prefix", STR, CC_VW_OPT)                                                          \
        K(python, platform, "platform", STR, CC_VW_OPT)                                                                \
        K(python, bits, "bits", INT, CC_VW_OPT)                                                                        \
        K(python, virtual_env, "virtual_env", BOOL, CC_VW_OPT)                                                         \
        K(python, conda, "conda", BOOL, CC_VW_OPT)                                                                     \
        K(python, site_packages, "site_packages", ARR, CC_VW_OPT)                                                      \
        K(python, unsupported, "unsupported", STR, CC_VW_OPT) /* Python older than 3.6 (group F) */

/* A distribution (an interpreter's, a framework's). */
#define CC_SCHEMA_distribution(K)                                                                                      \
        K(distribution, name, "name", STR, CC_VW_REQ)                                                                  \
        K(distribution, version, "version", STR, CC_VW_OPT | CC_VW_NULL)                                               \
        K(distribution, requires, "requires", ARR, CC_VW_OPT)                                                          \
        K(distribution, location, "location", STR, CC_VW_OPT)                                                          \
        K(distribution, real_location, "real_location", STR, CC_VW_OPT)                                                \
        K(distribution, metadata, "metadata", STR, CC_VW_OPT)                                                          \
        K(distribution, shadowed, "shadowed", BOOL, CC_VW_OPT)

/* A FRAMEWORK's `info` (what every framework says; the others' keys are
 * their own), `build`, `runtime`, `gpu_call`, `modules` and its files,
 * `loaded_cudnn`. */
#define CC_SCHEMA_fw_info(K)                                                                                           \
        K(fw_info, version, "version", STR, CC_VW_OPT | CC_VW_NULL)                                                    \
        K(fw_info, file, "file", STR, CC_VW_OPT | CC_VW_NULL)

#define CC_SCHEMA_fw_build(K)                                                                                          \
        K(fw_build, cuda, "cuda", STR, CC_VW_OPT | CC_VW_NULL)                                                         \
        K(fw_build, cudnn, "cudnn", STR, CC_VW_OPT | CC_VW_NULL)                                                       \
        K(fw_build, cudnn_source, "cudnn_source", STR, CC_VW_OPT)                                                      \
        K(fw_build, cudnn_error, "cudnn_error", STR, CC_VW_OPT)                                                        \
        K(fw_build, cuda_build, "cuda_build", BOOL, CC_VW_OPT | CC_VW_NULL)

#define CC_SCHEMA_fw_runtime(K)                                                                                        \
        K(fw_runtime, cudnn, "cudnn", STR, CC_VW_OPT | CC_VW_NULL)                                                     \
        K(fw_runtime, cudnn_source, "cudnn_source", STR, CC_VW_OPT)                                                    \
        K(fw_runtime, cudnn_error, "cudnn_error", STR, CC_VW_OPT)

#define CC_SCHEMA_gpu_call(K)                                                                                          \
        K(gpu_call, what, "what", STR, CC_VW_OPT)                                                                      \
        K(gpu_call, ok, "ok", BOOL, CC_VW_OPT)                                                                         \
        K(gpu_call, error, "error", STR, CC_VW_OPT)                                                                    \
        K(gpu_call, providers, "providers", ARR, CC_VW_OPT)                                                            \
        K(gpu_call, cuda_provider_created, "cuda_provider_created", BOOL, CC_VW_OPT)                                   \
        K(gpu_call, log, "log", STR, CC_VW_OPT)

#define CC_SCHEMA_fw_modules(K)                                                                                        \
        K(fw_modules, when, "when", STR, CC_VW_OPT)                                                                    \
        K(fw_modules, total, "total", INT, CC_VW_OPT)                                                                  \
        K(fw_modules, files, "files", ARR, CC_VW_OPT)                                                                  \
        K(fw_modules, error, "error", STR, CC_VW_OPT)

#define CC_SCHEMA_fw_module(K)                                                                                         \
        K(fw_module, path, "path", STR, CC_VW_REQ)                                                                     \
        K(fw_module, family, "family", STR, CC_VW_REQ)

#define CC_SCHEMA_loaded_cudnn(K)                                                                                      \
        K(loaded_cudnn, path, "path", STR, CC_VW_REQ)                                                                  \
        K(loaded_cudnn, version, "version", INT, CC_VW_OPT)                                                            \
        K(loaded_cudnn, cudart_version, "cudart_version", INT, CC_VW_OPT)                                              \
        K(loaded_cudnn, error, "error", STR, CC_VW_OPT)

/* A FRAMEWORK's `cudnn` (the copy it loads, written by the judge) and its
 * directories. */
#define CC_SCHEMA_fw_cudnn(K)                                                                                          \
        K(fw_cudnn, directories, "directories", ARR, CC_VW_REQ)                                                        \
        K(fw_cudnn, loaded, "loaded", BOOL, CC_VW_REQ)                                                                 \
        K(fw_cudnn, version, "version", STR, CC_VW_REQ | CC_VW_NULL)                                                   \
        K(fw_cudnn, version_source, "version_source", STR, CC_VW_REQ | CC_VW_NULL)                                     \
        K(fw_cudnn, directory, "directory", STR, CC_VW_OPT)                                                            \
        K(fw_cudnn, installation, "installation", INT, CC_VW_OPT | CC_VW_NULL)

#define CC_SCHEMA_fw_cudnn_dir(K)                                                                                      \
        K(fw_cudnn_dir, path, "path", STR, CC_VW_REQ)                                                                  \
        K(fw_cudnn_dir, files, "files", ARR, CC_VW_REQ)                                                                \
        K(fw_cudnn_dir, installation, "installation", INT, CC_VW_REQ | CC_VW_NULL)                                     \
        K(fw_cudnn_dir, prefix, "prefix", STR, CC_VW_OPT | CC_VW_NULL)                                                 \
        K(fw_cudnn_dir, version, "version", STR, CC_VW_OPT | CC_VW_NULL)                                               \
        K(fw_cudnn_dir, provenance, "provenance", STR, CC_VW_OPT | CC_VW_NULL)

/* ---- views for the Windows checks and verify's judges (group C) ---- */

/* What a probe child reports (verify's `probes`: PROBE `facts` and `gpu`;
 * src/lib/probe/child.c writes them, gpuwork.c the GPU operations). A
 * library a child loaded (the facts libcuda, nvml_library, shim, loads,
 * cudart, gpu_cudart): */
#define CC_SCHEMA_loaded_lib(K)                                                                                        \
        K(loaded_lib, name, "name", STR, CC_VW_REQ)                                                                    \
        K(loaded_lib, loaded, "loaded", BOOL, CC_VW_REQ)                                                               \
        K(loaded_lib, path, "path", STR, CC_VW_OPT | CC_VW_NULL)                                                       \
        K(loaded_lib, error, "error", STR, CC_VW_OPT)

/* A status a call returned: the number, its name in the numbering of the
 * library's major, the library's own text; `value` is what the call read,
 * when it succeeded (cuDriverGetVersion, cudaRuntimeGetVersion...). */
#define CC_SCHEMA_status(K)                                                                                            \
        K(status, code, "code", INT, CC_VW_REQ)                                                                        \
        K(status, name, "name", STR, CC_VW_OPT)                                                                        \
        K(status, text, "text", STR, CC_VW_OPT)                                                                        \
        K(status, value, "value", INT, CC_VW_OPT)

/* The driver probe's facts. */
#define CC_SCHEMA_driver_facts(K)                                                                                      \
        K(driver_facts, libcuda, "libcuda", OBJ, CC_VW_OPT)                                                            \
        K(driver_facts, driver_version, "driver_version", OBJ, CC_VW_OPT)                                              \
        K(driver_facts, cuInit, "cuInit", OBJ, CC_VW_OPT)                                                              \
        K(driver_facts, device_count, "device_count", OBJ, CC_VW_OPT)                                                  \
        K(driver_facts, devices, "devices", ARR, CC_VW_OPT)                                                            \
        K(driver_facts, nvml_library, "nvml_library", OBJ, CC_VW_OPT)                                                  \
        K(driver_facts, nvml, "nvml", OBJ, CC_VW_OPT)

/* A GPU the driver probe saw (its `devices`); cc_major and cc_minor are
 * absent when cuDeviceGetAttribute failed. */
#define CC_SCHEMA_device(K)                                                                                            \
        K(device, index, "index", INT, CC_VW_REQ)                                                                      \
        K(device, name, "name", STR, CC_VW_OPT)                                                                        \
        K(device, cc_major, "cc_major", INT, CC_VW_OPT)                                                                \
        K(device, cc_minor, "cc_minor", INT, CC_VW_OPT)                                                                \
        K(device, memory_bytes, "memory_bytes", INT, CC_VW_OPT)

/* What NVML says (the driver probe's `nvml`). */
#define CC_SCHEMA_nvml(K)                                                                                              \
        K(nvml, init, "init", INT, CC_VW_REQ)                                                                          \
        K(nvml, init_error, "init_error", STR, CC_VW_OPT)                                                              \
        K(nvml, driver_version, "driver_version", STR, CC_VW_OPT)                                                      \
        K(nvml, cuda_driver_version, "cuda_driver_version", INT, CC_VW_OPT)                                            \
        K(nvml, device_count, "device_count", INT, CC_VW_OPT)

/* The CUDA runtime probe's facts: each call a status, or the string "not
 * exported: FUNCTION". */
#define CC_SCHEMA_cudart_facts(K)                                                                                      \
        K(cudart_facts, cudart, "cudart", OBJ, CC_VW_OPT)                                                              \
        K(cudart_facts, runtime_version, "runtime_version", ANY, CC_VW_OPT)                                            \
        K(cudart_facts, driver_version, "driver_version", ANY, CC_VW_OPT)                                              \
        K(cudart_facts, device_count, "device_count", ANY, CC_VW_OPT)

/* The cuDNN probe's facts. create: a status, or "not-exported"; modules:
 * the paths mapped, or "cannot list: WHY". */
#define CC_SCHEMA_cudnn_facts(K)                                                                                       \
        K(cudnn_facts, loads, "loads", ARR, CC_VW_OPT)                                                                 \
        K(cudnn_facts, shim, "shim", OBJ, CC_VW_OPT)                                                                   \
        K(cudnn_facts, version, "version", INT, CC_VW_OPT)                                                             \
        K(cudnn_facts, cudart_version, "cudart_version", INT, CC_VW_OPT)                                               \
        K(cudnn_facts, max_device_version, "max_device_version", INT, CC_VW_OPT)                                       \
        K(cudnn_facts, properties, "properties", OBJ, CC_VW_OPT)                                                       \
        K(cudnn_facts, version_checks, "version_checks", ARR, CC_VW_OPT)                                               \
        K(cudnn_facts, create, "create", ANY, CC_VW_OPT)                                                               \
        K(cudnn_facts, modules, "modules", ANY, CC_VW_OPT)                                                             \
        K(cudnn_facts, gpu_cudart, "gpu_cudart", OBJ, CC_VW_OPT)                                                       \
        K(cudnn_facts, modules_after_gpu, "modules_after_gpu", ANY, CC_VW_OPT)

/* cudnnGetProperty: each part an int, or the status when the call failed. */
#define CC_SCHEMA_cudnn_properties(K)                                                                                  \
        K(cudnn_properties, major, "major", ANY, CC_VW_REQ)                                                            \
        K(cudnn_properties, minor, "minor", ANY, CC_VW_REQ)                                                            \
        K(cudnn_properties, patch, "patch", ANY, CC_VW_REQ)

/* One sub-library version check; result (a status) when it was called. */
#define CC_SCHEMA_version_check(K)                                                                                     \
        K(version_check, function, "function", STR, CC_VW_REQ)                                                         \
        K(version_check, sublibrary, "sublibrary", STR, CC_VW_REQ)                                                     \
        K(version_check, status, "status", STR, CC_VW_REQ)                                                             \
        K(version_check, result, "result", OBJ, CC_VW_OPT)

/* One GPU operation (PROBE `gpu`, the gpu-work check's `operations`). */
#define CC_SCHEMA_gpu_op(K)                                                                                            \
        K(gpu_op, op, "op", STR, CC_VW_REQ)                                                                            \
        K(gpu_op, family, "family", STR, CC_VW_REQ)                                                                    \
        K(gpu_op, api, "api", STR, CC_VW_REQ)                                                                          \
        K(gpu_op, shape, "shape", STR, CC_VW_REQ)                                                                      \
        K(gpu_op, status, "status", STR, CC_VW_REQ)                                                                    \
        K(gpu_op, reason, "reason", STR, CC_VW_OPT | CC_VW_NULL)                                                       \
        K(gpu_op, cudnn_status, "cudnn_status", INT, CC_VW_OPT)                                                        \
        K(gpu_op, algo, "algo", INT, CC_VW_OPT)                                                                        \
        K(gpu_op, math, "math", STR, CC_VW_OPT)                                                                        \
        K(gpu_op, heuristic, "heuristic", STR, CC_VW_OPT)                                                              \
        K(gpu_op, engine_configs, "engine_configs", INT, CC_VW_OPT)                                                    \
        K(gpu_op, engine_config, "engine_config", INT, CC_VW_OPT)                                                      \
        K(gpu_op, engine, "engine", INT, CC_VW_OPT)                                                                    \
        K(gpu_op, engine_notes, "engine_notes", ARR, CC_VW_OPT)                                                        \
        K(gpu_op, max_abs_error, "max_abs_error", NUM, CC_VW_OPT)                                                      \
        K(gpu_op, max_rel_error, "max_rel_error", NUM, CC_VW_OPT)                                                      \
        K(gpu_op, nonfinite, "nonfinite", INT, CC_VW_OPT)                                                              \
        K(gpu_op, tolerance, "tolerance", NUM, CC_VW_OPT)                                                              \
        K(gpu_op, elements, "elements", INT, CC_VW_OPT)                                                                \
        K(gpu_op, time_us, "time_us", INT, CC_VW_OPT)

/* The verify document (after its header) and its parts. */
#define CC_SCHEMA_verify_doc(K)                                                                                        \
        K(verify_doc, installation, "installation", OBJ, CC_VW_REQ)                                                    \
        K(verify_doc, gpu_requested, "gpu_requested", STR, CC_VW_REQ)                                                  \
        K(verify_doc, layers, "layers", ARR, CC_VW_REQ)                                                                \
        K(verify_doc, probes, "probes", OBJ, CC_VW_OPT)                                                                \
        K(verify_doc, compile, "compile", OBJ, CC_VW_OPT)                                                              \
        K(verify_doc, variants, "variants", ARR, CC_VW_OPT)                                                            \
        K(verify_doc, summary, "summary", OBJ, CC_VW_REQ)

#define CC_SCHEMA_verify_installation(K)                                                                               \
        K(verify_installation, id, "id", INT, CC_VW_REQ)                                                               \
        K(verify_installation, prefix, "prefix", STR, CC_VW_REQ | CC_VW_NULL)                                          \
        K(verify_installation, version, "version", STR, CC_VW_REQ | CC_VW_NULL)                                        \
        K(verify_installation, full_version, "full_version", STR, CC_VW_REQ | CC_VW_NULL)                              \
        K(verify_installation, provenance, "provenance", STR, CC_VW_REQ | CC_VW_NULL)                                  \
        K(verify_installation, major, "major", INT, CC_VW_REQ)                                                         \
        K(verify_installation, lib_dir, "lib_dir", STR, CC_VW_REQ | CC_VW_NULL)                                        \
        K(verify_installation, include_dir, "include_dir", STR, CC_VW_REQ | CC_VW_NULL)                                \
        K(verify_installation, chosen_by, "chosen_by", STR, CC_VW_REQ)                                                 \
        K(verify_installation, cuda_variants, "cuda_variants", ARR, CC_VW_OPT)                                         \
        K(verify_installation, cuda_variant, "cuda_variant", STR, CC_VW_OPT | CC_VW_NULL)                              \
        K(verify_installation, variant_chosen_by, "variant_chosen_by", STR, CC_VW_OPT)

/* One CUDA variant of the Windows installer's layout (bin\12.9\...), verified
 * as a set of its own. */
#define CC_SCHEMA_verify_variant(K)                                                                                    \
        K(verify_variant, cuda_variant, "cuda_variant", STR, CC_VW_REQ)                                                \
        K(verify_variant, version, "version", STR, CC_VW_REQ | CC_VW_NULL)                                             \
        K(verify_variant, lib_dir, "lib_dir", STR, CC_VW_REQ | CC_VW_NULL)                                             \
        K(verify_variant, include_dir, "include_dir", STR, CC_VW_REQ | CC_VW_NULL)                                     \
        K(verify_variant, verdict, "verdict", STR, CC_VW_REQ)                                                          \
        K(verify_variant, failed, "failed", INT, CC_VW_REQ)                                                            \
        K(verify_variant, not_checked, "not_checked", INT, CC_VW_REQ)                                                  \
        K(verify_variant, probes, "probes", OBJ, CC_VW_OPT)                                                            \
        K(verify_variant, compile, "compile", OBJ, CC_VW_OPT)

/* The probes' answers, each a PROBE; cudart when a libcudart was found,
 * cudnn_gpu when GPU work ran. */
#define CC_SCHEMA_verify_probes(K)                                                                                     \
        K(verify_probes, driver, "driver", OBJ, CC_VW_REQ)                                                             \
        K(verify_probes, cudnn, "cudnn", OBJ, CC_VW_REQ)                                                               \
        K(verify_probes, cudart, "cudart", OBJ, CC_VW_OPT)                                                             \
        K(verify_probes, cudnn_gpu, "cudnn_gpu", OBJ, CC_VW_OPT)

#define CC_SCHEMA_verify_summary(K)                                                                                    \
        K(verify_summary, verdict, "verdict", STR, CC_VW_REQ)                                                          \
        K(verify_summary, failed, "failed", INT, CC_VW_REQ)                                                            \
        K(verify_summary, not_checked, "not_checked", INT, CC_VW_REQ)                                                  \
        K(verify_summary, wall_ms, "wall_ms", INT, CC_VW_REQ)

/* The compile layer's facts (probe/compile.c), its compiler and what the
 * program printed. */
#define CC_SCHEMA_compile(K)                                                                                           \
        K(compile, status, "status", STR, CC_VW_REQ)                                                                   \
        K(compile, reason, "reason", STR, CC_VW_REQ | CC_VW_NULL)                                                      \
        K(compile, source, "source", STR, CC_VW_OPT)                                                                   \
        K(compile, compiler_from, "compiler_from", STR, CC_VW_OPT)                                                     \
        K(compile, compiler, "compiler", OBJ, CC_VW_OPT)                                                               \
        K(compile, include_dirs, "include_dirs", ARR, CC_VW_OPT)                                                       \
        K(compile, header_scan, "header_scan", OBJ, CC_VW_OPT)                                                         \
        K(compile, lib_dir, "lib_dir", STR, CC_VW_OPT | CC_VW_NULL)                                                    \
        K(compile, link, "link", OBJ, CC_VW_OPT)                                                                       \
        K(compile, command, "command", ARR, CC_VW_OPT)                                                                 \
        K(compile, compile, "compile", OBJ, CC_VW_OPT)                                                                 \
        K(compile, run, "run", OBJ, CC_VW_OPT)                                                                         \
        K(compile, failed_at, "failed_at", STR, CC_VW_OPT)                                                             \
        K(compile, printed, "printed", OBJ, CC_VW_OPT)                                                                 \
        K(compile, missing_headers, "missing_headers", ARR, CC_VW_OPT)                                                 \
        K(compile, notes, "notes", ARR, CC_VW_OPT)                                                                     \
        K(compile, reused, "reused", OBJ, CC_VW_OPT)                                                                   \
        K(compile, cache_notes, "cache_notes", ARR, CC_VW_OPT)

/* The kept build a compile proof ran instead of compiling (probe/compile_cache.c). */
#define CC_SCHEMA_compile_reused(K)                                                                                    \
        K(compile_reused, built, "built", INT, CC_VW_REQ)                                                              \
        K(compile_reused, built_at, "built_at", STR, CC_VW_REQ)                                                        \
        K(compile_reused, inputs, "inputs", INT, CC_VW_REQ)                                                            \
        K(compile_reused, entry, "entry", STR, CC_VW_REQ)                                                              \
        K(compile_reused, exe_sha256, "exe_sha256", STR, CC_VW_OPT)                                                    \
        K(compile_reused, compiler_version, "compiler_version", STR, CC_VW_OPT | CC_VW_NULL)

#define CC_SCHEMA_compiler(K)                                                                                          \
        K(compiler, path, "path", STR, CC_VW_REQ)                                                                      \
        K(compiler, command, "command", ARR, CC_VW_OPT)                                                                \
        K(compiler, version, "version", STR, CC_VW_OPT | CC_VW_NULL)                                                   \
        K(compiler, kind, "kind", STR, CC_VW_OPT)

/* What the program printed: null where it printed nothing of that. */
#define CC_SCHEMA_compile_printed(K)                                                                                   \
        K(compile_printed, header_version, "header_version", STR, CC_VW_REQ | CC_VW_NULL)                              \
        K(compile_printed, header_major, "header_major", INT, CC_VW_OPT | CC_VW_NULL)                                  \
        K(compile_printed, header_minor, "header_minor", INT, CC_VW_OPT | CC_VW_NULL)                                  \
        K(compile_printed, header_patch, "header_patch", INT, CC_VW_OPT | CC_VW_NULL)                                  \
        K(compile_printed, CUDNN_VERSION, "CUDNN_VERSION", INT, CC_VW_OPT | CC_VW_NULL)                                \
        K(compile_printed, runtime_version, "runtime_version", INT, CC_VW_OPT | CC_VW_NULL)                            \
        K(compile_printed, cudart_version, "cudart_version", INT, CC_VW_OPT | CC_VW_NULL)                              \
        K(compile_printed, create_status, "create_status", INT, CC_VW_OPT | CC_VW_NULL)                                \
        K(compile_printed, create_status_name, "create_status_name", STR, CC_VW_OPT | CC_VW_NULL)                      \
        K(compile_printed, destroy_status, "destroy_status", INT, CC_VW_OPT)                                           \
        K(compile_printed, loaded_from, "loaded_from", STR, CC_VW_OPT | CC_VW_NULL)                                    \
        K(compile_printed, complete, "complete", BOOL, CC_VW_OPT)

/* What the Windows checks read beside the other host facts (facts/host/windows,
 * commands/doctor_windows.c): the Python interpreters found, their
 * site-packages, the commit charge (null without a live Windows). */
#define CC_SCHEMA_host_windows(K)                                                                                      \
        K(host_windows, pythons, "pythons", ARR, CC_VW_REQ)                                                            \
        K(host_windows, site_packages, "site_packages", ARR, CC_VW_REQ)                                                \
        K(host_windows, memory, "memory", OBJ, CC_VW_REQ | CC_VW_NULL)

#define CC_SCHEMA_win_python(K)                                                                                        \
        K(win_python, path, "path", STR, CC_VW_REQ)                                                                    \
        K(win_python, source, "source", STR, CC_VW_REQ)                                                                \
        K(win_python, version, "version", STR, CC_VW_REQ | CC_VW_NULL)                                                 \
        K(win_python, version_source, "version_source", STR, CC_VW_REQ | CC_VW_NULL)                                   \
        K(win_python, version_file, "version_file", STR, CC_VW_REQ | CC_VW_NULL)                                       \
        K(win_python, venv, "venv", STR, CC_VW_REQ | CC_VW_NULL)                                                       \
        K(win_python, site_packages, "site_packages", STR, CC_VW_REQ | CC_VW_NULL)

#define CC_SCHEMA_win_site(K)                                                                                          \
        K(win_site, path, "path", STR, CC_VW_REQ)                                                                      \
        K(win_site, error, "error", STR, CC_VW_OPT)                                                                    \
        K(win_site, has_nvidia, "has_nvidia", BOOL, CC_VW_REQ)                                                         \
        K(win_site, has_torch, "has_torch", BOOL, CC_VW_REQ)                                                           \
        K(win_site, leftovers, "leftovers", ARR, CC_VW_REQ)                                                            \
        K(win_site, tensorflow, "tensorflow", ARR, CC_VW_REQ)

/* A TensorFlow dist-info of a site-packages directory. */
#define CC_SCHEMA_win_tf(K)                                                                                            \
        K(win_tf, package, "package", STR, CC_VW_REQ)                                                                  \
        K(win_tf, version, "version", STR, CC_VW_REQ)                                                                  \
        K(win_tf, dist_info, "dist_info", STR, CC_VW_REQ)

/* GlobalMemoryStatusEx, in bytes; error when it failed. */
#define CC_SCHEMA_win_memory(K)                                                                                        \
        K(win_memory, error, "error", STR, CC_VW_OPT)                                                                  \
        K(win_memory, commit_limit, "commit_limit", INT, CC_VW_OPT)                                                    \
        K(win_memory, commit_available, "commit_available", INT, CC_VW_OPT)                                            \
        K(win_memory, physical_total, "physical_total", INT, CC_VW_OPT)                                                \
        K(win_memory, physical_available, "physical_available", INT, CC_VW_OPT)

/* ---- views for the list, which and deps texts and discovery (group E) ---- */

/* ROOT of `list` (its `roots`). */
#define CC_SCHEMA_root(K)                                                                                              \
        K(root, path, "path", STR, CC_VW_REQ)                                                                          \
        K(root, sources, "sources", ARR, CC_VW_REQ)                                                                    \
        K(root, walk, "walk", STR, CC_VW_REQ)                                                                          \
        K(root, depth, "depth", INT, CC_VW_OPT)                                                                        \
        K(root, state, "state", STR, CC_VW_REQ)                                                                        \
        K(root, reason, "reason", STR, CC_VW_OPT)                                                                      \
        K(root, canonical, "canonical", STR, CC_VW_OPT)                                                                \
        K(root, alias_of, "alias_of", STR, CC_VW_OPT)                                                                  \
        K(root, found, "found", INT, CC_VW_REQ)

/* A path `list` passed over (its `skipped`). */
#define CC_SCHEMA_skipped(K)                                                                                           \
        K(skipped, path, "path", STR, CC_VW_REQ)                                                                       \
        K(skipped, reason, "reason", STR, CC_VW_REQ)

/* `list`'s `stats`. */
#define CC_SCHEMA_list_stats(K)                                                                                        \
        K(list_stats, roots, "roots", INT, CC_VW_REQ)                                                                  \
        K(list_stats, directories, "directories", INT, CC_VW_REQ)                                                      \
        K(list_stats, entries, "entries", INT, CC_VW_REQ)                                                              \
        K(list_stats, files, "files", INT, CC_VW_REQ)                                                                  \
        K(list_stats, installations, "installations", INT, CC_VW_REQ)                                                  \
        K(list_stats, max_dirs, "max_dirs", INT, CC_VW_REQ)                                                            \
        K(list_stats, max_entries_per_directory, "max_entries_per_directory", INT, CC_VW_REQ)                          \
        K(list_stats, truncated, "truncated", BOOL, CC_VW_REQ)

/* An INSTALLATION's `counts`. */
#define CC_SCHEMA_inst_counts(K)                                                                                       \
        K(inst_counts, libraries, "libraries", INT, CC_VW_REQ)                                                         \
        K(inst_counts, headers, "headers", INT, CC_VW_REQ)                                                             \
        K(inst_counts, import_libraries, "import_libraries", INT, CC_VW_REQ)                                           \
        K(inst_counts, static_libraries, "static_libraries", INT, CC_VW_REQ)                                           \
        K(inst_counts, symlinks, "symlinks", INT, CC_VW_REQ)                                                           \
        K(inst_counts, dist_info, "dist_info", INT, CC_VW_REQ)

/* One version of an INSTALLATION whose sources disagree (`disagreements`). */
#define CC_SCHEMA_disagreement(K)                                                                                      \
        K(disagreement, version, "version", STR, CC_VW_REQ)                                                            \
        K(disagreement, sources, "sources", ARR, CC_VW_REQ)                                                            \
        K(disagreement, files, "files", ARR, CC_VW_REQ)

/* One link of a FILE's `chain`. */
#define CC_SCHEMA_chain_link(K)                                                                                        \
        K(chain_link, path, "path", STR, CC_VW_REQ)                                                                    \
        K(chain_link, target, "target", STR, CC_VW_REQ)

/* A cuda-toolkit PROVENANCE's `toolkit`, and each of its `sources`. */
#define CC_SCHEMA_prov_toolkit(K)                                                                                      \
        K(prov_toolkit, version, "version", STR, CC_VW_REQ | CC_VW_NULL)                                               \
        K(prov_toolkit, sources, "sources", ARR, CC_VW_REQ)

#define CC_SCHEMA_toolkit_source(K)                                                                                    \
        K(toolkit_source, source, "source", STR, CC_VW_REQ)                                                            \
        K(toolkit_source, version, "version", STR, CC_VW_REQ)                                                          \
        K(toolkit_source, file, "file", STR, CC_VW_REQ | CC_VW_NULL)

/* A pip-wheel PROVENANCE's `bundled_in` (torch/lib). */
#define CC_SCHEMA_bundled_in(K)                                                                                        \
        K(bundled_in, name, "name", STR, CC_VW_REQ)                                                                    \
        K(bundled_in, version, "version", STR, CC_VW_REQ)                                                              \
        K(bundled_in, dist_info, "dist_info", STR, CC_VW_REQ)

/* An archive-copy PROVENANCE's `archive`. */
#define CC_SCHEMA_prov_archive(K)                                                                                      \
        K(prov_archive, name, "name", STR, CC_VW_REQ)                                                                  \
        K(prov_archive, era, "era", STR, CC_VW_REQ)                                                                    \
        K(prov_archive, version, "version", STR, CC_VW_REQ | CC_VW_NULL)                                               \
        K(prov_archive, cuda, "cuda", STR, CC_VW_REQ | CC_VW_NULL)                                                     \
        K(prov_archive, platform, "platform", STR, CC_VW_REQ)

/* A windows-installer PROVENANCE's `installer`. */
#define CC_SCHEMA_prov_installer(K) K(prov_installer, version, "version", STR, CC_VW_REQ)

/* A Windows uninstall entry of a PROVENANCE's `uninstall_entries`. */
#define CC_SCHEMA_prov_uninstall(K)                                                                                    \
        K(prov_uninstall, name, "name", STR, CC_VW_REQ)                                                                \
        K(prov_uninstall, version, "version", STR, CC_VW_REQ | CC_VW_NULL)                                             \
        K(prov_uninstall, publisher, "publisher", STR, CC_VW_REQ | CC_VW_NULL)                                         \
        K(prov_uninstall, location, "location", STR, CC_VW_REQ | CC_VW_NULL)                                           \
        K(prov_uninstall, key, "key", STR, CC_VW_REQ)                                                                  \
        K(prov_uninstall, matched_by, "matched_by", STR, CC_VW_REQ)

/* A copy `which` found that no search reached (a RESOLUTION's `elsewhere`). */
#define CC_SCHEMA_elsewhere(K)                                                                                         \
        K(elsewhere, path, "path", STR, CC_VW_REQ)                                                                     \
        K(elsewhere, realpath, "realpath", STR, CC_VW_REQ)                                                             \
        K(elsewhere, versions, "versions", ARR, CC_VW_REQ)                                                             \
        K(elsewhere, installation, "installation", INT, CC_VW_REQ | CC_VW_NULL)                                        \
        K(elsewhere, installation_version, "installation_version", STR, CC_VW_OPT | CC_VW_NULL)                        \
        K(elsewhere, installation_prefix, "installation_prefix", STR, CC_VW_OPT | CC_VW_NULL)                          \
        K(elsewhere, problems, "problems", ARR, CC_VW_OPT)

/* The `loader` of which and deps: the Linux loader's keys (a Windows loader
 * writes others; both write notes). */
#define CC_SCHEMA_loader(K)                                                                                            \
        K(loader, program, "program", STR, CC_VW_OPT | CC_VW_NULL)                                                     \
        K(loader, program_source, "program_source", STR, CC_VW_OPT)                                                    \
        K(loader, elf_class, "elf_class", INT, CC_VW_OPT)                                                              \
        K(loader, machine, "machine", STR, CC_VW_OPT | CC_VW_NULL)                                                     \
        K(loader, interpreter, "interpreter", STR, CC_VW_OPT | CC_VW_NULL)                                             \
        K(loader, interpreter_source, "interpreter_source", STR, CC_VW_OPT | CC_VW_NULL)                               \
        K(loader, default_dirs, "default_dirs", ARR, CC_VW_OPT)                                                        \
        K(loader, default_dirs_source, "default_dirs_source", STR, CC_VW_OPT)                                          \
        K(loader, glibc, "glibc", STR, CC_VW_OPT | CC_VW_NULL)                                                         \
        K(loader, dst_lib, "dst_lib", STR, CC_VW_OPT)                                                                  \
        K(loader, dst_platform, "dst_platform", STR, CC_VW_OPT | CC_VW_NULL)                                           \
        K(loader, subdirs, "subdirs", ARR, CC_VW_OPT)                                                                  \
        K(loader, subdirs_source, "subdirs_source", STR, CC_VW_OPT)                                                    \
        K(loader, ld_library_path, "ld_library_path", STR, CC_VW_OPT | CC_VW_NULL)                                     \
        K(loader, ld_so_cache, "ld_so_cache", OBJ, CC_VW_OPT)                                                          \
        K(loader, preload, "preload", ARR, CC_VW_OPT)                                                                  \
        K(loader, ld_so_conf_dirs, "ld_so_conf_dirs", ARR, CC_VW_OPT)                                                  \
        K(loader, ld_so_conf_warnings, "ld_so_conf_warnings", ARR, CC_VW_OPT)                                          \
        K(loader, notes, "notes", ARR, CC_VW_REQ)

/* The Linux loader's `ld_so_cache`. */
#define CC_SCHEMA_ld_so_cache(K)                                                                                       \
        K(ld_so_cache, path, "path", STR, CC_VW_REQ)                                                                   \
        K(ld_so_cache, format, "format", STR, CC_VW_REQ | CC_VW_NULL)                                                  \
        K(ld_so_cache, entries, "entries", INT, CC_VW_REQ)                                                             \
        K(ld_so_cache, required_flags, "required_flags", STR, CC_VW_REQ | CC_VW_NULL)                                  \
        K(ld_so_cache, error, "error", STR, CC_VW_REQ | CC_VW_NULL)                                                    \
        K(ld_so_cache, generator, "generator", STR, CC_VW_REQ | CC_VW_NULL)

/* ---- views for inspect and compat (group D) ---- */

/* FACTS of one path (inspect): every kind writes path and kind; the rest by kind. */
#define CC_SCHEMA_ins_facts(K)                                                                                         \
        K(ins_facts, path, "path", STR, CC_VW_OPT)                                                                     \
        K(ins_facts, kind, "kind", STR, CC_VW_REQ)                                                                     \
        K(ins_facts, same_file_as, "same_file_as", STR, CC_VW_OPT)                                                     \
        K(ins_facts, size, "size", INT, CC_VW_OPT)                                                                     \
        K(ins_facts, link, "link", STR, CC_VW_OPT | CC_VW_NULL)                                                        \
        K(ins_facts, error, "error", STR, CC_VW_OPT)                                                                   \
        K(ins_facts, warnings, "warnings", ARR, CC_VW_OPT)                                                             \
        K(ins_facts, file_name, "file_name", OBJ, CC_VW_OPT)                                                           \
        K(ins_facts, archive_name, "archive_name", OBJ, CC_VW_OPT)                                                     \
        K(ins_facts, versions, "versions", ARR, CC_VW_OPT)                                                             \
        K(ins_facts, elf, "elf", OBJ, CC_VW_OPT)                                                                       \
        K(ins_facts, pe, "pe", OBJ, CC_VW_OPT)                                                                         \
        K(ins_facts, cudnn, "cudnn", OBJ, CC_VW_OPT)                                                                   \
        K(ins_facts, header, "header", OBJ, CC_VW_OPT)                                                                 \
        K(ins_facts, max_compute_capability, "max_compute_capability", STR, CC_VW_OPT)                                 \
        K(ins_facts, distribution, "distribution", OBJ, CC_VW_OPT)                                                     \
        K(ins_facts, dist_info_name, "dist_info_name", OBJ, CC_VW_OPT)                                                 \
        K(ins_facts, implib, "implib", OBJ, CC_VW_OPT)                                                                 \
        K(ins_facts, ar, "ar", OBJ, CC_VW_OPT)                                                                         \
        K(ins_facts, archive, "archive", OBJ, CC_VW_OPT)                                                               \
        K(ins_facts, directory, "directory", OBJ, CC_VW_OPT)

/* What a cuDNN library or header name says (FACTS file_name). */
#define CC_SCHEMA_ins_file_name(K)                                                                                     \
        K(ins_file_name, role, "role", STR, CC_VW_REQ)                                                                 \
        K(ins_file_name, file_kind, "file_kind", STR, CC_VW_REQ)                                                       \
        K(ins_file_name, system, "system", STR, CC_VW_REQ)                                                             \
        K(ins_file_name, major, "major", INT, CC_VW_REQ | CC_VW_NULL)                                                  \
        K(ins_file_name, version, "version", STR, CC_VW_REQ | CC_VW_NULL)                                              \
        K(ins_file_name, dev_link, "dev_link", BOOL, CC_VW_REQ)                                                        \
        K(ins_file_name, known_role, "known_role", BOOL, CC_VW_REQ)

/* What a cuDNN archive or wheel name says (FACTS archive_name, an archive's name). */
#define CC_SCHEMA_ins_archive_name(K)                                                                                  \
        K(ins_archive_name, era, "era", STR, CC_VW_REQ)                                                                \
        K(ins_archive_name, format, "format", STR, CC_VW_REQ)                                                          \
        K(ins_archive_name, version, "version", STR, CC_VW_REQ | CC_VW_NULL)                                           \
        K(ins_archive_name, platform, "platform", STR, CC_VW_REQ)                                                      \
        K(ins_archive_name, system, "system", STR, CC_VW_REQ)                                                          \
        K(ins_archive_name, arch, "arch", STR, CC_VW_REQ)                                                              \
        K(ins_archive_name, cuda, "cuda", STR, CC_VW_REQ | CC_VW_NULL)                                                 \
        K(ins_archive_name, package, "package", STR, CC_VW_OPT | CC_VW_NULL)

/* An ELF file's headers and dynamic section. */
#define CC_SCHEMA_ins_elf(K)                                                                                           \
        K(ins_elf, class, "class", INT, CC_VW_REQ)                                                                     \
        K(ins_elf, endian, "endian", STR, CC_VW_REQ)                                                                   \
        K(ins_elf, type, "type", STR, CC_VW_REQ | CC_VW_NULL)                                                          \
        K(ins_elf, type_code, "type_code", INT, CC_VW_REQ)                                                             \
        K(ins_elf, machine, "machine", STR, CC_VW_REQ)                                                                 \
        K(ins_elf, machine_code, "machine_code", INT, CC_VW_REQ)                                                       \
        K(ins_elf, osabi, "osabi", INT, CC_VW_REQ)                                                                     \
        K(ins_elf, interp, "interp", STR, CC_VW_REQ | CC_VW_NULL)                                                      \
        K(ins_elf, dynamic, "dynamic", BOOL, CC_VW_REQ)                                                                \
        K(ins_elf, soname, "soname", STR, CC_VW_REQ | CC_VW_NULL)                                                      \
        K(ins_elf, needed, "needed", ARR, CC_VW_REQ)                                                                   \
        K(ins_elf, rpath, "rpath", STR, CC_VW_REQ | CC_VW_NULL)                                                        \
        K(ins_elf, runpath, "runpath", STR, CC_VW_REQ | CC_VW_NULL)                                                    \
        K(ins_elf, flags_1, "flags_1", INT, CC_VW_REQ)                                                                 \
        K(ins_elf, nodeflib, "nodeflib", BOOL, CC_VW_REQ)                                                              \
        K(ins_elf, exports_count, "exports_count", INT, CC_VW_REQ)                                                     \
        K(ins_elf, exports, "exports", ARR, CC_VW_OPT)

/* The cuDNN API a library exports (ELF or PE). */
#define CC_SCHEMA_ins_cudnn(K)                                                                                         \
        K(ins_cudnn, entry_points, "entry_points", ARR, CC_VW_REQ)                                                     \
        K(ins_cudnn, version_constants, "version_constants", ARR, CC_VW_OPT)

/* A PE file's headers, imports, exports and version resource. */
#define CC_SCHEMA_ins_pe(K)                                                                                            \
        K(ins_pe, machine, "machine", STR, CC_VW_REQ)                                                                  \
        K(ins_pe, machine_code, "machine_code", INT, CC_VW_REQ)                                                        \
        K(ins_pe, type, "type", STR, CC_VW_REQ)                                                                        \
        K(ins_pe, pe32plus, "pe32plus", BOOL, CC_VW_REQ)                                                               \
        K(ins_pe, subsystem, "subsystem", INT, CC_VW_REQ)                                                              \
        K(ins_pe, timestamp, "timestamp", INT, CC_VW_REQ)                                                              \
        K(ins_pe, imports, "imports", ARR, CC_VW_REQ)                                                                  \
        K(ins_pe, delay_imports, "delay_imports", ARR, CC_VW_REQ)                                                      \
        K(ins_pe, export_name, "export_name", STR, CC_VW_REQ | CC_VW_NULL)                                             \
        K(ins_pe, exports_count, "exports_count", INT, CC_VW_REQ)                                                      \
        K(ins_pe, exports, "exports", ARR, CC_VW_OPT)                                                                  \
        K(ins_pe, exports_by_ordinal_only, "exports_by_ordinal_only", INT, CC_VW_REQ)                                  \
        K(ins_pe, version_info, "version_info", OBJ, CC_VW_REQ | CC_VW_NULL)

#define CC_SCHEMA_ins_pe_version(K)                                                                                    \
        K(ins_pe_version, file_version, "file_version", STR, CC_VW_REQ | CC_VW_NULL)                                   \
        K(ins_pe_version, product_version, "product_version", STR, CC_VW_REQ | CC_VW_NULL)                             \
        K(ins_pe_version, file_flags_mask, "file_flags_mask", INT, CC_VW_OPT)                                          \
        K(ins_pe_version, file_flags, "file_flags", INT, CC_VW_OPT)                                                    \
        K(ins_pe_version, file_os, "file_os", INT, CC_VW_OPT)                                                          \
        K(ins_pe_version, file_type, "file_type", INT, CC_VW_OPT)                                                      \
        K(ins_pe_version, file_subtype, "file_subtype", INT, CC_VW_OPT)                                                \
        K(ins_pe_version, strings, "strings", ARR, CC_VW_REQ)                                                          \
        K(ins_pe_version, translations, "translations", ARR, CC_VW_REQ)

/* One StringFileInfo string of a version resource. */
#define CC_SCHEMA_ins_pe_string(K)                                                                                     \
        K(ins_pe_string, table, "table", STR, CC_VW_REQ)                                                               \
        K(ins_pe_string, key, "key", STR, CC_VW_REQ)                                                                   \
        K(ins_pe_string, value, "value", STR, CC_VW_REQ)

/* A COFF import library (implib) or a Unix static library (ar). */
#define CC_SCHEMA_ins_implib(K)                                                                                        \
        K(ins_implib, dlls, "dlls", ARR, CC_VW_REQ)                                                                    \
        K(ins_implib, symbols, "symbols", INT, CC_VW_REQ)                                                              \
        K(ins_implib, members, "members", INT, CC_VW_REQ)                                                              \
        K(ins_implib, machine, "machine", STR, CC_VW_REQ | CC_VW_NULL)

#define CC_SCHEMA_ins_header(K)                                                                                        \
        K(ins_header, includes, "includes", ARR, CC_VW_REQ)                                                            \
        K(ins_header, defines, "defines", INT, CC_VW_REQ)                                                              \
        K(ins_header, macros, "macros", ARR, CC_VW_REQ)

/* A version macro a header defines. */
#define CC_SCHEMA_ins_macro(K)                                                                                         \
        K(ins_macro, name, "name", STR, CC_VW_REQ)                                                                     \
        K(ins_macro, definition, "definition", STR, CC_VW_REQ | CC_VW_NULL)                                            \
        K(ins_macro, line, "line", INT, CC_VW_REQ)                                                                     \
        K(ins_macro, value, "value", INT, CC_VW_REQ | CC_VW_NULL)                                                      \
        K(ins_macro, warning, "warning", STR, CC_VW_OPT)                                                               \
        K(ins_macro, error, "error", STR, CC_VW_OPT | CC_VW_NULL)

/* A Python distribution's METADATA (and RECORD for a dist-info). */
#define CC_SCHEMA_ins_dist(K)                                                                                          \
        K(ins_dist, name, "name", STR, CC_VW_REQ | CC_VW_NULL)                                                         \
        K(ins_dist, version, "version", STR, CC_VW_REQ | CC_VW_NULL)                                                   \
        K(ins_dist, summary, "summary", STR, CC_VW_REQ | CC_VW_NULL)                                                   \
        K(ins_dist, requires, "requires", ARR, CC_VW_REQ)                                                              \
        K(ins_dist, files, "files", INT, CC_VW_OPT)                                                                    \
        K(ins_dist, record_error, "record_error", STR, CC_VW_OPT)

#define CC_SCHEMA_ins_archive(K)                                                                                       \
        K(ins_archive, format, "format", STR, CC_VW_REQ | CC_VW_NULL)                                                  \
        K(ins_archive, entries, "entries", INT, CC_VW_REQ)                                                             \
        K(ins_archive, total_size, "total_size", INT, CC_VW_REQ)                                                       \
        K(ins_archive, layout, "layout", STR, CC_VW_REQ)                                                               \
        K(ins_archive, top_dir, "top_dir", STR, CC_VW_REQ | CC_VW_NULL)                                                \
        K(ins_archive, system, "system", STR, CC_VW_REQ)                                                               \
        K(ins_archive, arch, "arch", STR, CC_VW_REQ)                                                                   \
        K(ins_archive, name, "name", OBJ, CC_VW_REQ | CC_VW_NULL)                                                      \
        K(ins_archive, unsafe_paths, "unsafe_paths", ARR, CC_VW_REQ)                                                   \
        K(ins_archive, warnings, "warnings", ARR, CC_VW_REQ)                                                           \
        K(ins_archive, members, "members", ARR, CC_VW_REQ)                                                             \
        K(ins_archive, truncated, "truncated", BOOL, CC_VW_REQ)                                                        \
        K(ins_archive, truncated_reason, "truncated_reason", STR, CC_VW_OPT)                                           \
        K(ins_archive, decompressed, "decompressed", INT, CC_VW_REQ)

/* A member an install refuses. */
#define CC_SCHEMA_ins_unsafe(K)                                                                                        \
        K(ins_unsafe, path, "path", STR, CC_VW_REQ)                                                                    \
        K(ins_unsafe, reason, "reason", STR, CC_VW_REQ)                                                                \
        K(ins_unsafe, entry, "entry", INT, CC_VW_REQ)                                                                  \
        K(ins_unsafe, problems, "problems", ARR, CC_VW_REQ)

#define CC_SCHEMA_ins_member(K)                                                                                        \
        K(ins_member, path, "path", STR, CC_VW_REQ)                                                                    \
        K(ins_member, type, "type", STR, CC_VW_REQ)                                                                    \
        K(ins_member, size, "size", INT, CC_VW_REQ | CC_VW_NULL)                                                       \
        K(ins_member, link, "link", STR, CC_VW_REQ | CC_VW_NULL)                                                       \
        K(ins_member, mode, "mode", INT, CC_VW_REQ)                                                                    \
        K(ins_member, install_to, "install_to", STR, CC_VW_REQ | CC_VW_NULL)                                           \
        K(ins_member, facts, "facts", OBJ, CC_VW_OPT | CC_VW_NULL)                                                     \
        K(ins_member, facts_skipped, "facts_skipped", STR, CC_VW_OPT)

/* A directory walk: the limits are said once, for the path given. */
#define CC_SCHEMA_ins_directory(K)                                                                                     \
        K(ins_directory, counts, "counts", OBJ, CC_VW_REQ)                                                             \
        K(ins_directory, majors, "majors", ARR, CC_VW_REQ)                                                             \
        K(ins_directory, versions, "versions", ARR, CC_VW_REQ)                                                         \
        K(ins_directory, files, "files", ARR, CC_VW_REQ)                                                               \
        K(ins_directory, skipped, "skipped", ARR, CC_VW_REQ)                                                           \
        K(ins_directory, truncated, "truncated", BOOL, CC_VW_OPT)                                                      \
        K(ins_directory, truncated_reason, "truncated_reason", STR, CC_VW_OPT)                                         \
        K(ins_directory, max_depth, "max_depth", INT, CC_VW_OPT)                                                       \
        K(ins_directory, not_entered_depth, "not_entered_depth", INT, CC_VW_OPT)

#define CC_SCHEMA_ins_dir_counts(K)                                                                                    \
        K(ins_dir_counts, libraries, "libraries", INT, CC_VW_REQ)                                                      \
        K(ins_dir_counts, headers, "headers", INT, CC_VW_REQ)                                                          \
        K(ins_dir_counts, import_libraries, "import_libraries", INT, CC_VW_REQ)                                        \
        K(ins_dir_counts, static_libraries, "static_libraries", INT, CC_VW_REQ)                                        \
        K(ins_dir_counts, symlinks, "symlinks", INT, CC_VW_REQ)                                                        \
        K(ins_dir_counts, dist_info, "dist_info", INT, CC_VW_REQ)

#define CC_SCHEMA_ins_skipped(K)                                                                                       \
        K(ins_skipped, path, "path", STR, CC_VW_REQ)                                                                   \
        K(ins_skipped, reason, "reason", STR, CC_VW_REQ)

/* The compat document (kb/compat.c) and its answers. */
#define CC_SCHEMA_compat_doc(K)                                                                                        \
        K(compat_doc, query, "query", OBJ, CC_VW_REQ)                                                                  \
        K(compat_doc, answers, "answers", ARR, CC_VW_REQ)                                                              \
        K(compat_doc, summary, "summary", OBJ, CC_VW_REQ)

#define CC_SCHEMA_compat_answer(K)                                                                                     \
        K(compat_answer, id, "id", STR, CC_VW_REQ)                                                                     \
        K(compat_answer, question, "question", STR, CC_VW_REQ)                                                         \
        K(compat_answer, verdict, "verdict", STR, CC_VW_REQ)                                                           \
        K(compat_answer, reason, "reason", STR, CC_VW_REQ)                                                             \
        K(compat_answer, source, "source", STR, CC_VW_REQ | CC_VW_NULL)                                                \
        K(compat_answer, releases, "releases", ARR, CC_VW_OPT)                                                         \
        K(compat_answer, support, "support", STR, CC_VW_OPT | CC_VW_NULL)

/* A release row of a cudnn-for-cuda answer. */
#define CC_SCHEMA_compat_release(K)                                                                                    \
        K(compat_release, cudnn, "cudnn", STR, CC_VW_REQ)                                                              \
        K(compat_release, cudnn_last, "cudnn_last", STR, CC_VW_REQ | CC_VW_NULL)                                       \
        K(compat_release, cuda_build, "cuda_build", STR, CC_VW_REQ)                                                    \
        K(compat_release, match, "match", STR, CC_VW_REQ)                                                              \
        K(compat_release, source, "source", STR, CC_VW_REQ)

#define CC_SCHEMA_compat_summary(K)                                                                                    \
        K(compat_summary, yes, "yes", INT, CC_VW_REQ)                                                                  \
        K(compat_summary, no, "no", INT, CC_VW_REQ)                                                                    \
        K(compat_summary, unknown, "unknown", INT, CC_VW_REQ)                                                          \
        K(compat_summary, verdict, "verdict", STR, CC_VW_REQ)

/* ---- views for the explain, verify and doctor texts, the doctor's gathering and the probe protocol (group G) ---- */

/* The body of `explain --json` (after its header). */
#define CC_SCHEMA_explain_doc(K)                                                                                       \
        K(explain_doc, input, "input", STR, CC_VW_REQ)                                                                 \
        K(explain_doc, input_bytes, "input_bytes", INT, CC_VW_REQ)                                                     \
        K(explain_doc, input_truncated, "input_truncated", BOOL, CC_VW_REQ)                                            \
        K(explain_doc, major, "major", INT, CC_VW_REQ | CC_VW_NULL)                                                    \
        K(explain_doc, system, "system", STR, CC_VW_REQ)                                                               \
        K(explain_doc, matches, "matches", ARR, CC_VW_REQ)                                                             \
        K(explain_doc, suggestions, "suggestions", ARR, CC_VW_REQ)                                                     \
        K(explain_doc, notes, "notes", ARR, CC_VW_REQ)

/* MATCH of `explain` (explain/explain.c match_value), its `codes`, `rule` and
 * `commands`, and the captures explain itself reads. */
#define CC_SCHEMA_explain_match(K)                                                                                     \
        K(explain_match, kind, "kind", STR, CC_VW_REQ)                                                                 \
        K(explain_match, recogniser, "recogniser", STR, CC_VW_REQ | CC_VW_NULL)                                        \
        K(explain_match, id, "id", STR, CC_VW_REQ | CC_VW_NULL)                                                        \
        K(explain_match, also, "also", ARR, CC_VW_REQ)                                                                 \
        K(explain_match, title, "title", STR, CC_VW_REQ | CC_VW_NULL)                                                  \
        K(explain_match, catalog_number, "catalog_number", STR, CC_VW_REQ | CC_VW_NULL)                                \
        K(explain_match, platform, "platform", STR, CC_VW_REQ | CC_VW_NULL)                                            \
        K(explain_match, code, "code", INT, CC_VW_REQ | CC_VW_NULL)                                                    \
        K(explain_match, name, "name", STR, CC_VW_REQ | CC_VW_NULL)                                                    \
        K(explain_match, major, "major", INT, CC_VW_REQ | CC_VW_NULL)                                                  \
        K(explain_match, codes, "codes", ARR, CC_VW_OPT)                                                               \
        K(explain_match, api, "api", STR, CC_VW_OPT | CC_VW_NULL)                                                      \
        K(explain_match, equivalent, "equivalent", STR, CC_VW_OPT | CC_VW_NULL)                                        \
        K(explain_match, hex, "hex", STR, CC_VW_OPT | CC_VW_NULL)                                                      \
        K(explain_match, message, "message", STR, CC_VW_OPT | CC_VW_NULL)                                              \
        K(explain_match, captures, "captures", OBJ, CC_VW_REQ)                                                         \
        K(explain_match, rule, "rule", OBJ, CC_VW_OPT)                                                                 \
        K(explain_match, text, "text", STR, CC_VW_REQ)                                                                 \
        K(explain_match, line, "line", INT, CC_VW_REQ)                                                                 \
        K(explain_match, count, "count", INT, CC_VW_REQ)                                                               \
        K(explain_match, meaning, "meaning", STR, CC_VW_REQ | CC_VW_NULL)                                              \
        K(explain_match, code_meaning, "code_meaning", STR, CC_VW_OPT | CC_VW_NULL)                                    \
        K(explain_match, causes, "causes", ARR, CC_VW_REQ)                                                             \
        K(explain_match, commands, "commands", ARR, CC_VW_REQ)                                                         \
        K(explain_match, fix, "fix", STR, CC_VW_REQ | CC_VW_NULL)                                                      \
        K(explain_match, source, "source", STR, CC_VW_REQ | CC_VW_NULL)                                                \
        K(explain_match, note, "note", STR, CC_VW_REQ | CC_VW_NULL)

#define CC_SCHEMA_explain_code(K)                                                                                      \
        K(explain_code, major, "major", INT, CC_VW_REQ)                                                                \
        K(explain_code, code, "code", INT, CC_VW_REQ)                                                                  \
        K(explain_code, alias_of, "alias_of", STR, CC_VW_REQ | CC_VW_NULL)

#define CC_SCHEMA_explain_rule(K)                                                                                      \
        K(explain_rule, name, "name", STR, CC_VW_REQ)                                                                  \
        K(explain_rule, statement, "statement", STR, CC_VW_REQ)                                                        \
        K(explain_rule, build, "build", STR, CC_VW_REQ | CC_VW_NULL)                                                   \
        K(explain_rule, runtime, "runtime", STR, CC_VW_REQ | CC_VW_NULL)                                               \
        K(explain_rule, holds, "holds", BOOL, CC_VW_REQ | CC_VW_NULL)                                                  \
        K(explain_rule, reason, "reason", STR, CC_VW_REQ)

#define CC_SCHEMA_explain_command(K)                                                                                   \
        K(explain_command, command, "command", STR, CC_VW_REQ | CC_VW_NULL)                                            \
        K(explain_command, shows, "shows", STR, CC_VW_REQ | CC_VW_NULL)

/* The captures a recogniser's rule reads (the others are each pattern's own). */
#define CC_SCHEMA_explain_captures(K)                                                                                  \
        K(explain_captures, code, "code", STR, CC_VW_OPT)                                                              \
        K(explain_captures, name, "name", STR, CC_VW_OPT)                                                              \
        K(explain_captures, build, "build", STR, CC_VW_OPT)                                                            \
        K(explain_captures, runtime, "runtime", STR, CC_VW_OPT)

/* A failure catalog entry (cc_catalog_entry): what a MATCH takes from it. */
#define CC_SCHEMA_catalog_entry(K)                                                                                     \
        K(catalog_entry, id, "id", STR, CC_VW_REQ)                                                                     \
        K(catalog_entry, catalog_number, "catalog_number", STR, CC_VW_REQ | CC_VW_NULL)                                \
        K(catalog_entry, platform, "platform", STR, CC_VW_REQ | CC_VW_NULL)                                            \
        K(catalog_entry, area, "area", STR, CC_VW_REQ | CC_VW_NULL)                                                    \
        K(catalog_entry, title, "title", STR, CC_VW_REQ | CC_VW_NULL)                                                  \
        K(catalog_entry, meaning, "meaning", STR, CC_VW_REQ | CC_VW_NULL)                                              \
        K(catalog_entry, causes, "causes", ARR, CC_VW_REQ)                                                             \
        K(catalog_entry, commands, "commands", ARR, CC_VW_REQ)                                                         \
        K(catalog_entry, fix, "fix", STR, CC_VW_REQ | CC_VW_NULL)                                                      \
        K(catalog_entry, source, "source", STR, CC_VW_REQ | CC_VW_NULL)

/* The doctor document's `summary`, a FINDING's `catalog`, an evidence's
 * `instances` (their own keys are each check's). */
#define CC_SCHEMA_doctor_summary(K)                                                                                    \
        K(doctor_summary, verdict, "verdict", STR, CC_VW_REQ)                                                          \
        K(doctor_summary, errors, "errors", INT, CC_VW_REQ)                                                            \
        K(doctor_summary, warnings, "warnings", INT, CC_VW_REQ)                                                        \
        K(doctor_summary, infos, "infos", INT, CC_VW_REQ)                                                              \
        K(doctor_summary, wall_ms, "wall_ms", INT, CC_VW_OPT)

#define CC_SCHEMA_finding_catalog(K)                                                                                   \
        K(finding_catalog, number, "number", STR, CC_VW_REQ | CC_VW_NULL)                                              \
        K(finding_catalog, title, "title", STR, CC_VW_REQ | CC_VW_NULL)                                                \
        K(finding_catalog, source, "source", STR, CC_VW_REQ | CC_VW_NULL)

#define CC_SCHEMA_finding_instance(K) K(finding_instance, summary, "summary", STR, CC_VW_OPT)

/* The evidence of verify's `gpu-work` check. */
#define CC_SCHEMA_gpu_work_evidence(K)                                                                                 \
        K(gpu_work_evidence, operations, "operations", ARR, CC_VW_REQ)                                                 \
        K(gpu_work_evidence, seed, "seed", STR, CC_VW_REQ | CC_VW_NULL)

/* A file of facts/host/driver_files. */
#define CC_SCHEMA_driver_file(K)                                                                                       \
        K(driver_file, path, "path", STR, CC_VW_REQ)                                                                   \
        K(driver_file, symlink, "symlink", BOOL, CC_VW_OPT)                                                            \
        K(driver_file, driver_version, "driver_version", STR, CC_VW_OPT)                                               \
        K(driver_file, file_version, "file_version", STR, CC_VW_OPT | CC_VW_NULL)                                      \
        K(driver_file, error, "error", STR, CC_VW_OPT)

/* A CUDA toolkit's version.json, as far as the doctor reads it:
 * {"cuda": {"version": ...}}. */
#define CC_SCHEMA_cuda_version_json(K) K(cuda_version_json, cuda, "cuda", OBJ, CC_VW_OPT)

#define CC_SCHEMA_cuda_version_part(K) K(cuda_version_part, version, "version", STR, CC_VW_OPT)

/* One line of a probe child's protocol (probe/probe.h). */
#define CC_SCHEMA_probe_line(K)                                                                                        \
        K(probe_line, t, "t", STR, CC_VW_REQ)                                                                          \
        K(probe_line, step, "step", STR, CC_VW_OPT)                                                                    \
        K(probe_line, k, "k", STR, CC_VW_OPT)                                                                          \
        K(probe_line, v, "v", ANY, CC_VW_OPT)

/* ---- views for the frameworks text and the frameworks' gathering (group F) ---- */

/* The body of `frameworks --json` (after its header) and its `summary`. */
#define CC_SCHEMA_fw_doc(K)                                                                                            \
        K(fw_doc, gpu_requested, "gpu_requested", STR, CC_VW_REQ)                                                      \
        K(fw_doc, expect, "expect", STR, CC_VW_REQ | CC_VW_NULL)                                                       \
        K(fw_doc, plain_program, "plain_program", OBJ, CC_VW_REQ | CC_VW_NULL)                                         \
        K(fw_doc, interpreters, "interpreters", ARR, CC_VW_REQ)                                                        \
        K(fw_doc, summary, "summary", OBJ, CC_VW_REQ)

#define CC_SCHEMA_fw_summary(K)                                                                                        \
        K(fw_summary, interpreters, "interpreters", INT, CC_VW_REQ)                                                    \
        K(fw_summary, probed, "probed", INT, CC_VW_REQ)                                                                \
        K(fw_summary, frameworks, "frameworks", INT, CC_VW_REQ)                                                        \
        K(fw_summary, failed, "failed", INT, CC_VW_REQ)                                                                \
        K(fw_summary, warnings, "warnings", INT, CC_VW_REQ)                                                            \
        K(fw_summary, notes, "notes", INT, CC_VW_REQ)                                                                  \
        K(fw_summary, wall_ms, "wall_ms", INT, CC_VW_OPT)

/* The facts the probe script (frameworks/fwprobe.py) reports: `survey`
 * gives python, distributions and found; `framework NAME` gives import, then
 * query_error, or info, build, runtime, devices, gpu_call, modules and
 * loaded_cudnn. The interpreter is not trusted: the framework's answers are
 * of any type, and a FRAMEWORK carries them as they came (the text reads
 * them from there through this view too). */
#define CC_SCHEMA_fwprobe(K)                                                                                           \
        K(fwprobe, python, "python", OBJ, CC_VW_OPT)                                                                   \
        K(fwprobe, distributions, "distributions", ARR, CC_VW_OPT)                                                     \
        K(fwprobe, found, "found", OBJ, CC_VW_OPT)                                                                     \
        K(fwprobe, import, "import", ANY, CC_VW_OPT)                                                                   \
        K(fwprobe, query_error, "query_error", ANY, CC_VW_OPT)                                                         \
        K(fwprobe, info, "info", ANY, CC_VW_OPT)                                                                       \
        K(fwprobe, build, "build", ANY, CC_VW_OPT)                                                                     \
        K(fwprobe, runtime, "runtime", ANY, CC_VW_OPT)                                                                 \
        K(fwprobe, devices, "devices", ANY, CC_VW_OPT)                                                                 \
        K(fwprobe, gpu_call, "gpu_call", ANY, CC_VW_OPT)                                                               \
        K(fwprobe, modules, "modules", ANY, CC_VW_OPT)                                                                 \
        K(fwprobe, loaded_cudnn, "loaded_cudnn", ANY, CC_VW_OPT)

/* An entry of an interpreter's `found` (by module name). */
#define CC_SCHEMA_fw_found(K)                                                                                          \
        K(fw_found, importable, "importable", BOOL, CC_VW_REQ)                                                         \
        K(fw_found, origin, "origin", STR, CC_VW_OPT | CC_VW_NULL)                                                     \
        K(fw_found, error, "error", STR, CC_VW_OPT)

/* A FRAMEWORK's `import` and its `devices`. */
#define CC_SCHEMA_fw_import(K)                                                                                         \
        K(fw_import, ok, "ok", BOOL, CC_VW_REQ)                                                                        \
        K(fw_import, error, "error", STR, CC_VW_OPT)                                                                   \
        K(fw_import, seconds, "seconds", NUM, CC_VW_OPT)

#define CC_SCHEMA_fw_device(K)                                                                                         \
        K(fw_device, index, "index", INT, CC_VW_OPT)                                                                   \
        K(fw_device, name, "name", STR, CC_VW_OPT | CC_VW_NULL)                                                        \
        K(fw_device, capability, "capability", STR, CC_VW_OPT)

/* A FRAMEWORK's `build` and `modules` where the text tells what the child
 * gave of any type: a null cuda_build (the framework could not say) shows
 * as no CUDA, unlike an absent one; files are counted as they came. */
#define CC_SCHEMA_fw_build_raw(K) K(fw_build_raw, cuda_build, "cuda_build", ANY, CC_VW_OPT | CC_VW_NULL)

#define CC_SCHEMA_fw_modules_raw(K) K(fw_modules_raw, files, "files", ANY, CC_VW_OPT)
/* ---- views for who-uses (group I) ---- */

/* What cc_who_uses_files gives (and the `who-uses` document holds): the
 * processes that map the files, and how many could not be looked at. */
#define CC_SCHEMA_who_scan(K)                                                                                          \
        K(who_scan, users, "users", ARR, CC_VW_REQ)                                                                    \
        K(who_scan, processes, "processes", INT, CC_VW_REQ)                                                            \
        K(who_scan, unreadable, "unreadable", INT, CC_VW_REQ)                                                          \
        K(who_scan, notes, "notes", ARR, CC_VW_REQ)

/* One process and one file it maps. */
#define CC_SCHEMA_who_user(K)                                                                                          \
        K(who_user, pid, "pid", INT, CC_VW_REQ)                                                                        \
        K(who_user, name, "name", STR, CC_VW_REQ | CC_VW_NULL)                                                         \
        K(who_user, cmdline, "cmdline", STR, CC_VW_REQ | CC_VW_NULL)                                                   \
        K(who_user, file, "file", STR, CC_VW_REQ)                                                                      \
        K(who_user, seen, "seen", ARR, CC_VW_REQ)                                                                      \
        K(who_user, deleted, "deleted", BOOL, CC_VW_REQ)

/* The body of `who-uses --json` (after its header; with who_scan's keys). */
#define CC_SCHEMA_who_doc(K)                                                                                           \
        K(who_doc, queries, "queries", ARR, CC_VW_REQ)                                                                 \
        K(who_doc, targets, "targets", ARR, CC_VW_REQ)                                                                 \
        K(who_doc, files, "files", ARR, CC_VW_REQ)                                                                     \
        K(who_doc, verdict, "verdict", STR, CC_VW_REQ)

/* One PATH or INSTALL of the command line, and what it stood for. */
#define CC_SCHEMA_who_target(K)                                                                                        \
        K(who_target, query, "query", STR, CC_VW_REQ)                                                                  \
        K(who_target, kind, "kind", STR, CC_VW_REQ)                                                                    \
        K(who_target, path, "path", STR, CC_VW_REQ)                                                                    \
        K(who_target, installation, "installation", INT, CC_VW_REQ | CC_VW_NULL)                                       \
        K(who_target, files, "files", INT, CC_VW_REQ)                                                                  \
        K(who_target, truncated, "truncated", BOOL, CC_VW_REQ)

/* Every view: V(view, "the name docs/json.md describes it under"). */
/* ---- views for the install plan (group J) ---- */

/* INSTALL PLAN: what `install` will do (--dry-run prints it). */
#define CC_SCHEMA_install_plan(K)                                                                                      \
        K(install_plan, source, "source", OBJ, CC_VW_REQ)                                                              \
        K(install_plan, target, "target", OBJ, CC_VW_REQ)                                                              \
        K(install_plan, checks, "checks", ARR, CC_VW_REQ)                                                              \
        K(install_plan, operations, "operations", ARR, CC_VW_REQ)                                                      \
        K(install_plan, summary, "summary", OBJ, CC_VW_REQ)

/* PLAN SOURCE: the release to install. */
#define CC_SCHEMA_plan_source(K)                                                                                       \
        K(plan_source, path, "path", STR, CC_VW_REQ)                                                                   \
        K(plan_source, kind, "kind", STR, CC_VW_REQ)                                                                   \
        K(plan_source, layout, "layout", STR, CC_VW_REQ)                                                               \
        K(plan_source, version, "version", STR, CC_VW_REQ | CC_VW_NULL)                                                \
        K(plan_source, major, "major", INT, CC_VW_REQ | CC_VW_NULL)                                                    \
        K(plan_source, cuda_major, "cuda_major", INT, CC_VW_REQ | CC_VW_NULL)                                          \
        K(plan_source, system, "system", STR, CC_VW_REQ | CC_VW_NULL)                                                  \
        K(plan_source, machine, "machine", STR, CC_VW_REQ | CC_VW_NULL)                                                \
        K(plan_source, members, "members", INT, CC_VW_REQ)                                                             \
        K(plan_source, bytes, "bytes", INT, CC_VW_REQ)                                                                 \
        K(plan_source, versions, "versions", ARR, CC_VW_REQ)

/* PLAN TARGET: where it goes. */
#define CC_SCHEMA_plan_target(K)                                                                                       \
        K(plan_target, path, "path", STR, CC_VW_REQ)                                                                   \
        K(plan_target, kind, "kind", STR, CC_VW_REQ)                                                                   \
        K(plan_target, system, "system", STR, CC_VW_REQ)                                                               \
        K(plan_target, cuda_major, "cuda_major", INT, CC_VW_REQ | CC_VW_NULL)                                          \
        K(plan_target, manifest, "manifest", STR, CC_VW_REQ)

/* PLAN CHECK: one pre-check and its verdict. */
#define CC_SCHEMA_plan_check(K)                                                                                        \
        K(plan_check, id, "id", STR, CC_VW_REQ)                                                                        \
        K(plan_check, verdict, "verdict", STR, CC_VW_REQ)                                                              \
        K(plan_check, reason, "reason", STR, CC_VW_REQ)

/* PLAN OPERATION: one step of the transaction. */
#define CC_SCHEMA_plan_op(K)                                                                                           \
        K(plan_op, op, "op", STR, CC_VW_REQ)                                                                           \
        K(plan_op, path, "path", STR, CC_VW_REQ)                                                                       \
        K(plan_op, link, "link", STR, CC_VW_OPT)                                                                       \
        K(plan_op, size, "size", INT, CC_VW_OPT)                                                                       \
        K(plan_op, mode, "mode", STR, CC_VW_OPT)                                                                       \
        K(plan_op, sha256, "sha256", STR, CC_VW_OPT)                                                                   \
        K(plan_op, old_size, "old_size", INT, CC_VW_OPT)                                                               \
        K(plan_op, old_sha256, "old_sha256", STR, CC_VW_OPT)                                                           \
        K(plan_op, from, "from", STR, CC_VW_OPT)

/* PLAN SUMMARY: the counts. */
#define CC_SCHEMA_plan_summary(K)                                                                                      \
        K(plan_summary, mkdir, "mkdir", INT, CC_VW_REQ)                                                                \
        K(plan_summary, place, "place", INT, CC_VW_REQ)                                                                \
        K(plan_summary, replace, "replace", INT, CC_VW_REQ)                                                            \
        K(plan_summary, remove, "remove", INT, CC_VW_REQ)                                                              \
        K(plan_summary, setreg, "setreg", INT, CC_VW_OPT)                                                              \
        K(plan_summary, bytes, "bytes", INT, CC_VW_REQ)                                                                \
        K(plan_summary, other_majors, "other_majors", ARR, CC_VW_REQ)                                                  \
        K(plan_summary, stop, "stop", BOOL, CC_VW_REQ)

/* INSTALL: the install document's own keys. */
#define CC_SCHEMA_install_doc(K)                                                                                       \
        K(install_doc, dry_run, "dry_run", BOOL, CC_VW_REQ)                                                            \
        K(install_doc, recovered, "recovered", ARR, CC_VW_OPT)                                                         \
        K(install_doc, plan, "plan", OBJ, CC_VW_REQ)                                                                   \
        K(install_doc, result, "result", OBJ, CC_VW_REQ)                                                               \
        K(install_doc, log_error, "log_error", STR, CC_VW_OPT)                                                         \
        K(install_doc, verify, "verify", OBJ, CC_VW_OPT)                                                               \
        K(install_doc, verify_error, "verify_error", STR, CC_VW_OPT)

/* INSTALL RESULT: what happened. */
#define CC_SCHEMA_install_result(K)                                                                                    \
        K(install_result, status, "status", STR, CC_VW_REQ)                                                            \
        K(install_result, transaction, "transaction", STR, CC_VW_REQ | CC_VW_NULL)                                     \
        K(install_result, error, "error", STR, CC_VW_REQ | CC_VW_NULL)                                                 \
        K(install_result, undo_failed, "undo_failed", BOOL, CC_VW_REQ)                                                 \
        K(install_result, manifest, "manifest", STR, CC_VW_REQ | CC_VW_NULL)                                           \
        K(install_result, use, "use", STR, CC_VW_REQ | CC_VW_NULL)                                                     \
        K(install_result, ldconfig, "ldconfig", STR, CC_VW_OPT)

/* CHANGE: the document of uninstall, rollback, recover and history. */
#define CC_SCHEMA_change_doc(K)                                                                                        \
        K(change_doc, command, "command", STR, CC_VW_REQ)                                                              \
        K(change_doc, target, "target", STR, CC_VW_REQ)                                                                \
        K(change_doc, dry_run, "dry_run", BOOL, CC_VW_REQ)                                                             \
        K(change_doc, of, "of", STR, CC_VW_OPT)                                                                        \
        K(change_doc, recovered, "recovered", ARR, CC_VW_OPT)                                                          \
        K(change_doc, checks, "checks", ARR, CC_VW_OPT)                                                                \
        K(change_doc, operations, "operations", ARR, CC_VW_OPT)                                                        \
        K(change_doc, summary, "summary", OBJ, CC_VW_OPT)                                                              \
        K(change_doc, result, "result", OBJ, CC_VW_OPT)                                                                \
        K(change_doc, transactions, "transactions", ARR, CC_VW_OPT)                                                    \
        K(change_doc, unreadable, "unreadable", ARR, CC_VW_OPT)

/* HISTORY TRANSACTION: one transaction of a target. */
#define CC_SCHEMA_history_txn(K)                                                                                       \
        K(history_txn, id, "id", STR, CC_VW_REQ)                                                                       \
        K(history_txn, label, "label", STR, CC_VW_REQ | CC_VW_NULL)                                                    \
        K(history_txn, state, "state", STR, CC_VW_REQ)                                                                 \
        K(history_txn, rolled_back, "rolled_back", BOOL, CC_VW_REQ)                                                    \
        K(history_txn, backups_kept, "backups_kept", BOOL, CC_VW_REQ)                                                  \
        K(history_txn, mkdir, "mkdir", INT, CC_VW_REQ)                                                                 \
        K(history_txn, place, "place", INT, CC_VW_REQ)                                                                 \
        K(history_txn, replace, "replace", INT, CC_VW_REQ)                                                             \
        K(history_txn, remove, "remove", INT, CC_VW_REQ)                                                               \
        K(history_txn, setreg, "setreg", INT, CC_VW_OPT)

/* MANIFEST: what one install placed (.cudnnctl/installed/<id>.json). */
#define CC_SCHEMA_manifest(K)                                                                                          \
        K(manifest, manifest_version, "manifest_version", INT, CC_VW_REQ)                                              \
        K(manifest, id, "id", STR, CC_VW_REQ)                                                                          \
        K(manifest, version, "version", STR, CC_VW_REQ | CC_VW_NULL)                                                   \
        K(manifest, major, "major", INT, CC_VW_REQ)                                                                    \
        K(manifest, cuda_major, "cuda_major", INT, CC_VW_REQ | CC_VW_NULL)                                             \
        K(manifest, source, "source", STR, CC_VW_REQ)                                                                  \
        K(manifest, layout, "layout", STR, CC_VW_REQ)                                                                  \
        K(manifest, target_kind, "target_kind", STR, CC_VW_REQ)                                                        \
        K(manifest, transaction, "transaction", STR, CC_VW_REQ)                                                        \
        K(manifest, installed_at, "installed_at", STR, CC_VW_REQ)                                                      \
        K(manifest, files, "files", ARR, CC_VW_REQ)

/* MANIFEST FILE: one file or link it placed. */
#define CC_SCHEMA_manifest_file(K)                                                                                     \
        K(manifest_file, path, "path", STR, CC_VW_REQ)                                                                 \
        K(manifest_file, size, "size", INT, CC_VW_OPT)                                                                 \
        K(manifest_file, mode, "mode", STR, CC_VW_OPT)                                                                 \
        K(manifest_file, mtime, "mtime", INT, CC_VW_OPT)                                                               \
        K(manifest_file, sha256, "sha256", STR, CC_VW_OPT)                                                             \
        K(manifest_file, link, "link", STR, CC_VW_OPT)                                                                 \
        K(manifest_file, replaced, "replaced", BOOL, CC_VW_REQ)

#define CC_SCHEMA_VIEWS(V)                                                                                             \
        V(version, "VERSION")                                                                                          \
        V(installation, "INSTALLATION")                                                                                \
        V(provenance, "PROVENANCE")                                                                                    \
        V(file, "FILE")                                                                                                \
        V(problem, "problems")                                                                                         \
        V(resolution, "RESOLUTION")                                                                                    \
        V(step, "tried")                                                                                               \
        V(node, "NODE")                                                                                                \
        V(edge, "EDGE")                                                                                                \
        V(layer, "layers")                                                                                             \
        V(check, "CHECK")                                                                                              \
        V(probe, "PROBE")                                                                                              \
        V(framework, "FRAMEWORK")                                                                                      \
        V(verdict, "verdicts")                                                                                         \
        V(search_path, "search_paths")                                                                                 \
        V(path_entry, "search_paths")                                                                                  \
        V(toolkit, "toolkits")                                                                                         \
        V(deps_entry, "deps")                                                                                          \
        V(verify_entry, "verify")                                                                                      \
        V(finding, "FINDING")                                                                                          \
        V(area, "AREA")                                                                                                \
        /* group A */                                                                                                  \
        V(doctor, "doctor")                                                                                            \
        V(machine, "machine")                                                                                          \
        V(finding_evidence, "evidence")                                                                                \
        V(which_doc, "which document")                                                                                 \
        V(deps_summary, "deps summary")                                                                                \
        V(deps_cudnn, "deps summary")                                                                                  \
        V(deps_cudnn_set, "deps summary cuDNN directory")                                                              \
        V(include_search, "include_search")                                                                            \
        V(registry_path, "registry_path")                                                                              \
        V(version_evidence, "version evidence")                                                                        \
        /* group B */                                                                                                  \
        V(doctor_facts, "facts")                                                                                       \
        V(host, "host")                                                                                                \
        V(env, "env")                                                                                                  \
        V(wsl, "wsl")                                                                                                  \
        V(driver_files, "driver_files")                                                                                \
        V(list_doc, "list")                                                                                            \
        V(inst_dir, "directories")                                                                                     \
        V(package, "packages")                                                                                         \
        V(deps_doc, "deps document")                                                                                   \
        V(driver_evidence, "driver evidence")                                                                          \
        V(fw_facts, "frameworks facts")                                                                                \
        V(interpreter, "INTERPRETER")                                                                                  \
        V(python, "python")                                                                                            \
        V(distribution, "distributions")                                                                               \
        V(fw_info, "info")                                                                                             \
        V(fw_build, "build")                                                                                           \
        V(fw_runtime, "runtime")                                                                                       \
        V(gpu_call, "gpu_call")                                                                                        \
        V(fw_modules, "modules")                                                                                       \
        V(fw_module, "modules")                                                                                        \
        V(loaded_cudnn, "loaded_cudnn")                                                                                \
        V(fw_cudnn, "cudnn")                                                                                           \
        V(fw_cudnn_dir, "cudnn")                                                                                       \
        /* group C */                                                                                                  \
        V(loaded_lib, "probe facts")                                                                                   \
        V(status, "probe facts")                                                                                       \
        V(driver_facts, "probe facts")                                                                                 \
        V(device, "probe facts")                                                                                       \
        V(nvml, "probe facts")                                                                                         \
        V(cudart_facts, "probe facts")                                                                                 \
        V(cudnn_facts, "probe facts")                                                                                  \
        V(cudnn_properties, "probe facts")                                                                             \
        V(version_check, "probe facts")                                                                                \
        V(gpu_op, "operations")                                                                                        \
        V(verify_doc, "verify document")                                                                               \
        V(verify_installation, "verify document")                                                                      \
        V(verify_variant, "verify document")                                                                           \
        V(verify_probes, "verify document")                                                                            \
        V(verify_summary, "verify document")                                                                           \
        V(compile, "compile")                                                                                          \
        V(compiler, "compile")                                                                                         \
        V(compile_printed, "compile")                                                                                  \
        V(compile_reused, "compile")                                                                                   \
        V(host_windows, "host windows")                                                                                \
        V(win_python, "host windows")                                                                                  \
        V(win_site, "host windows")                                                                                    \
        V(win_tf, "host windows")                                                                                      \
        V(win_memory, "host windows")                                                                                  \
        /* group E */                                                                                                  \
        V(root, "ROOT")                                                                                                \
        V(skipped, "skipped")                                                                                          \
        V(list_stats, "stats")                                                                                         \
        V(inst_counts, "counts")                                                                                       \
        V(disagreement, "disagreements")                                                                               \
        V(chain_link, "FILE")                                                                                          \
        V(prov_toolkit, "PROVENANCE")                                                                                  \
        V(toolkit_source, "PROVENANCE")                                                                                \
        V(bundled_in, "PROVENANCE")                                                                                    \
        V(prov_archive, "PROVENANCE")                                                                                  \
        V(prov_installer, "PROVENANCE")                                                                                \
        V(prov_uninstall, "PROVENANCE")                                                                                \
        V(elsewhere, "which document")                                                                                 \
        V(loader, "loader")                                                                                            \
        V(ld_so_cache, "loader")                                                                                       \
        /* group D */                                                                                                  \
        V(ins_facts, "FACTS")                                                                                          \
        V(ins_file_name, "file_name")                                                                                  \
        V(ins_archive_name, "archive_name")                                                                            \
        V(ins_elf, "kind `elf`")                                                                                       \
        V(ins_cudnn, "kind `elf`")                                                                                     \
        V(ins_pe, "kind `pe`")                                                                                         \
        V(ins_pe_version, "kind `pe`")                                                                                 \
        V(ins_pe_string, "kind `pe`")                                                                                  \
        V(ins_implib, "kind `import-library`")                                                                         \
        V(ins_header, "kind `header`")                                                                                 \
        V(ins_macro, "kind `header`")                                                                                  \
        V(ins_dist, "kind `metadata`")                                                                                 \
        V(ins_archive, "kind `archive`")                                                                               \
        V(ins_unsafe, "kind `archive`")                                                                                \
        V(ins_member, "kind `archive`")                                                                                \
        V(ins_directory, "kind `directory`")                                                                           \
        V(ins_dir_counts, "kind `directory`")                                                                          \
        V(ins_skipped, "kind `directory`")                                                                             \
        V(compat_doc, "compat")                                                                                        \
        V(compat_answer, "compat")                                                                                     \
        V(compat_release, "compat")                                                                                    \
        V(compat_summary, "compat")                                                                                    \
        /* group G */                                                                                                  \
        V(explain_doc, "explain document")                                                                             \
        V(explain_match, "MATCH")                                                                                      \
        V(explain_code, "codes")                                                                                       \
        V(explain_rule, "rule")                                                                                        \
        V(explain_command, "commands")                                                                                 \
        V(explain_captures, "captures")                                                                                \
        V(catalog_entry, "catalog entry")                                                                              \
        V(doctor_summary, "doctor summary")                                                                            \
        V(finding_catalog, "catalog")                                                                                  \
        V(finding_instance, "evidence")                                                                                \
        V(gpu_work_evidence, "gpu-work evidence")                                                                      \
        V(driver_file, "driver_files")                                                                                 \
        V(cuda_version_json, "toolkits")                                                                               \
        V(cuda_version_part, "toolkits")                                                                               \
        V(probe_line, "probe protocol")                                                                                \
        /* group F */                                                                                                  \
        V(fw_doc, "frameworks document")                                                                               \
        V(fw_summary, "frameworks document")                                                                           \
        V(fwprobe, "fwprobe facts")                                                                                    \
        V(fw_found, "found")                                                                                           \
        V(fw_import, "import")                                                                                         \
        V(fw_device, "devices")                                                                                        \
        V(fw_build_raw, "build")                                                                                       \
        V(fw_modules_raw, "modules")                                                                                   \
        /* group J */                                                                                                  \
        V(install_plan, "INSTALL PLAN")                                                                                \
        V(plan_source, "PLAN SOURCE")                                                                                  \
        V(plan_target, "PLAN TARGET")                                                                                  \
        V(plan_check, "PLAN CHECK")                                                                                    \
        V(plan_op, "PLAN OPERATION")                                                                                   \
        V(plan_summary, "PLAN SUMMARY")                                                                                \
        V(install_doc, "INSTALL")                                                                                      \
        V(install_result, "INSTALL RESULT")                                                                            \
        V(change_doc, "CHANGE")                                                                                        \
        V(history_txn, "HISTORY TRANSACTION")                                                                          \
        V(manifest, "MANIFEST")                                                                                        \
        V(manifest_file, "MANIFEST FILE")                                                                              \
        /* group I */                                                                                                  \
        V(who_scan, "who-uses scan")                                                                                   \
        V(who_user, "who-uses USER")                                                                                   \
        V(who_doc, "who-uses document")                                                                                \
        V(who_target, "who-uses TARGET")

#endif
