/* verify's compile layer (verify_int.h): the guide's minimal program
 * (probe/compile.c) compiled and linked against the installation's headers
 * and libraries with the machine's compiler, run, and its answer compared
 * with the run-time probe's. */
#include "verify_int.h"

#include "../fetch/fetch.h"
#include "../probe/compile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void compile_thread(void *arg)
{
        struct cc_vf_compile *c = arg;

        c->rc = cc_compile_probe(&c->co, &c->res, &c->e);
}

int cc_vf_compile_start(struct cc_vctx *v, struct cc_vf_compile *c, cc_error *err)
{
        const char *prefix = v->iv.prefix;
        const char *home = cc_machine_getenv(v->m, "CUDA_HOME"), *cpath = cc_machine_getenv(v->m, "CUDA_PATH");
        size_t i;

        memset(c, 0, sizeof(*c));
        c->rc = -1;
        if (!v->m->live || v->o->no_compile) {
                c->skip = 1;
                return 0;
        }
        /* Where cuda_runtime_api.h may be: the installation itself (a CUDA
         * toolkit), the wheel's sibling CUDA headers, the toolkit's. */
        if (v->include_dir != NULL)
                TRY_RET(cc_strv_push(&c->incs, v->include_dir, err));
        if (prefix != NULL) {
                TRY_RET(cc_strv_pushf(&c->incs, 1, err, "%s/../cu13/include", prefix));
                TRY_RET(cc_strv_pushf(&c->incs, 1, err, "%s/../cuda_runtime/include", prefix));
                TRY_RET(cc_strv_pushf(&c->incs, 1, err, "%s/../cu12/include", prefix));
        }
        if (home != NULL)
                TRY_RET(cc_strv_pushf(&c->incs, 1, err, "%s/include", home));
        if (cpath != NULL)
                TRY_RET(cc_strv_pushf(&c->incs, 1, err, "%s%cinclude", cpath, v->windows ? '\\' : '/'));
        if (!v->windows) {
                TRY_RET(cc_strv_pushf(&c->incs, 1, err, "/usr/local/cuda/include"));
                TRY_RET(cc_strv_pushf(&c->incs, 1, err, "/usr/include"));
        }
        for (i = 0; i < c->incs.n;) {
                cc_stat sst;

                if (cc_stat_path(c->incs.v[i], &sst, NULL) == 0 && sst.type == CC_FT_DIR) {
                        i++;
                } else {
                        free(c->incs.v[i]);
                        memmove(&c->incs.v[i], &c->incs.v[i + 1], (c->incs.n - i - 1) * sizeof(*c->incs.v));
                        c->incs.n--;
                }
        }
        c->co.include_dir = v->include_dir;
        c->co.lib_dir = v->lib_dir;
        c->co.dll_dir = v->lib_dir;
        /* Windows links against the import library (NVIDIA's zip: lib\x64\cudnn.lib),
         * not in bin\ with the DLLs. */
        if (v->windows && cc_vf_find_file(v, "cudnn.lib") != NULL) {
                c->implib_dir = cc_dirname(cc_vf_find_file(v, "cudnn.lib"), 1, err);
                if (c->implib_dir == NULL)
                        return -1;
                c->co.lib_dir = c->implib_dir;
        }
        c->co.cuda_include_dirs = (const char *const *)c->incs.v;
        c->co.ncuda_include_dirs = c->incs.n;
        c->co.major = v->major;
        c->co.path_env = cc_machine_getenv(v->m, "PATH");
        c->co.timeout_ms = v->o->timeout_ms > 0 ? v->o->timeout_ms : 60000;
        c->co.windows = v->windows;
        /* A build that passed is kept and run again while its inputs are
         * unchanged (compile_cache.h); --recompile builds afresh and keeps
         * that. No cache directory (no HOME), or Windows (the directory's
         * owner is not checked there): built each time. */
        if (!cc_host_is_windows()) {
                cc_error ce = {0};

                c->cache_dir = cc_fetch_default_cache(&ce);
                if (c->cache_dir == NULL && ce.code == CC_ERR_NOMEM) {
                        *err = ce;
                        return -1;
                }
                c->co.cache_dir = c->cache_dir;
                c->co.rebuild = v->o->recompile;
        }
        /* beside the run-time probes when more than one child may run; else
         * here, before them, as it always ran */
        if (cc_machine_jobs(v->m, 2) > 1 && cc_thread_start(compile_thread, c, &c->th, NULL) == 0)
                return 0;
        c->th = NULL;
        compile_thread(c);
        return 0;
}

int cc_vf_layer_compile(struct cc_vctx *v, cc_value *doc, const cc_value *dnn, struct cc_vf_compile *c, cc_error *err)
{
        cc_value *checks = NULL, *res = NULL;
        cc_vw_compile cr;
        cc_vw_compile_printed pr;
        const char *st, *reason;

        if (c->th != NULL)
                cc_thread_join(c->th);
        c->th = NULL;
        res = c->res;
        c->res = NULL;
        cc_strv_free(&c->incs);
        free(c->implib_dir);
        c->implib_dir = NULL;
        free(c->cache_dir);
        c->cache_dir = NULL;
        if (v == NULL) /* only the job to end and free */
                goto fail;
        checks = cc_v_array(err);
        if (checks == NULL)
                goto fail;
        if (c->skip) {
                TRY(cc_vf_add(v, checks, "compile", "the guide's program compiles, links and runs", "not-checked", NULL,
                              err, "%s", v->o->no_compile ? "--no-compile" : "--root: nothing from that tree is run"));
                return cc_vf_add_layer(v, "compile", "compile, link and run", checks, err);
        }
        if (c->rc < 0) {
                *err = c->e;
                goto fail;
        }
        cc_vw_compile_read(res, &cr, NULL);
        cc_vw_compile_printed_read(cr.printed, &pr, NULL);
        st = cr.status;
        reason = cr.reason;
        if (st == NULL || strcmp(st, "passed") != 0) {
                TRY(cc_vf_add(v, checks, "compile", "the guide's program compiles, links and runs", st ? st : "failed",
                              NULL, err, "%s", reason ? reason : "?"));
        } else {
                cudnnctl_ver hv = {0}, rv = {0};
                int64_t rtv = pr.runtime_version, pc = pr.create_status;
                cc_vw_probe probe;
                cc_vw_cudnn_facts pf;
                cc_vw_status probe_create; /* a status, unless cudnnCreate is not exported */
                cc_vw_compiler comp;
                cc_vw_compile_reused reused = {0};
                char b1[32], b2[32];

                cc_vw_probe_read(dnn, &probe, NULL);
                cc_vw_cudnn_facts_read(probe.facts, &pf, NULL);
                cc_vw_status_read(pf.create, &probe_create, NULL);
                cc_vw_compiler_read(cr.compiler, &comp, NULL);
                if (cr.reused != NULL)
                        cc_vw_compile_reused_read(cr.reused, &reused, NULL);
                if (pr.header_version != NULL)
                        cudnnctl_ver_parse(pr.header_version, &hv);
                cudnnctl_cudnn_decode((long)rtv, &rv);
                if (v->header.n > 0 && hv.n > 0 && !cc_vf_ver3_eq(&hv, &v->header))
                        TRY(cc_vf_add(v, checks, "compile", "the guide's program compiles, links and runs", "failed",
                                      NULL, err, "the program saw header %s, but the installation's header says %s",
                                      cc_vf_vstr(&hv, b1, sizeof(b1)), cc_vf_vstr(&v->header, b2, sizeof(b2))));
                else if (hv.n > 0 && rv.n > 0 && !cc_vf_ver3_eq(&hv, &rv))
                        TRY(cc_vf_add(v, checks, "compile", "the guide's program compiles, links and runs", "failed",
                                      NULL, err,
                                      "the program was built with header %s and runs library %s: header and library "
                                      "disagree",
                                      cc_vf_vstr(&hv, b1, sizeof(b1)), cc_vf_vstr(&rv, b2, sizeof(b2))));
                else if (pf.version > 0 && rtv != pf.version)
                        TRY(cc_vf_add(v, checks, "compile", "the guide's program compiles, links and runs", "failed",
                                      NULL, err,
                                      "the program runs cuDNN %lld, the probe loaded %lld: they load different copies",
                                      (long long)rtv, (long long)pf.version));
                else if (CC_VW_HAS(&probe_create, status, code) && probe_create.code != pc)
                        TRY(cc_vf_add(v, checks, "compile", "the guide's program compiles, links and runs", "failed",
                                      NULL, err, "cudnnCreate gave %lld in the program and %lld in the probe",
                                      (long long)pc, (long long)probe_create.code));
                else
                        TRY(cc_vf_add(
                            v, checks, "compile", "the guide's program compiles, links and runs", "passed", NULL, err,
                            "built with %s%s%s%s; it printed header %s, cudnnGetVersion %lld, cudnnCreate %lld%s%s",
                            comp.version ? comp.version : "the C compiler", reused.built_at ? " at " : "",
                            reused.built_at ? reused.built_at : "",
                            reused.built_at ? " and run again (its inputs unchanged; --recompile builds it afresh)"
                                            : "",
                            hv.n ? cc_vf_vstr(&hv, b1, sizeof(b1)) : "?", (long long)rtv, (long long)pc,
                            pr.create_status_name ? " " : "", pr.create_status_name ? pr.create_status_name : ""));
        }
        TRY(cc_v_set(doc, CC_K(verify_doc, compile), res, err));
        return cc_vf_add_layer(v, "compile", "compile, link and run", checks, err);
fail:
        cc_v_free(checks);
        cc_v_free(res);
        return -1;
}
