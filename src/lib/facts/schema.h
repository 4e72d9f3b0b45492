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
        K(provenance, installer, "installer", OBJ, CC_VW_OPT)

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
        K(resolution, problems, "problems", ARR, CC_VW_OPT)                                                            \
        K(resolution, elsewhere, "elsewhere", ARR, CC_VW_OPT)

/* A place the loader tries (a RESOLUTION's `tried`; `shadowed` adds versions
 * and installation). */
#define CC_SCHEMA_step(K)                                                                                              \
        K(step, path, "path", STR, CC_VW_REQ)                                                                          \
        K(step, how, "how", STR, CC_VW_OPT)                                                                            \
        K(step, origin, "origin", STR, CC_VW_OPT | CC_VW_NULL)                                                         \
        K(step, outcome, "outcome", STR, CC_VW_REQ)                                                                    \
        K(step, detail, "detail", STR, CC_VW_OPT | CC_VW_NULL)                                                         \
        K(step, realpath, "realpath", STR, CC_VW_OPT | CC_VW_NULL)                                                     \
        K(step, versions, "versions", ARR, CC_VW_OPT)                                                                  \
        K(step, installation, "installation", INT, CC_VW_OPT | CC_VW_NULL)

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
        K(layer, checks, "checks", ARR, CC_VW_REQ)

#define CC_SCHEMA_check(K)                                                                                             \
        K(check, id, "id", STR, CC_VW_REQ)                                                                             \
        K(check, title, "title", STR, CC_VW_OPT)                                                                       \
        K(check, status, "status", STR, CC_VW_REQ)                                                                     \
        K(check, summary, "summary", STR, CC_VW_REQ)                                                                   \
        K(check, evidence, "evidence", OBJ, CC_VW_OPT)

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

/* Every view: V(view, "the name docs/json.md describes it under"). */
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
        V(area, "AREA")

#endif
