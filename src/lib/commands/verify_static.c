/* verify's static layer (verify_int.h): the header's version macros against
 * the versions the library files give (file names, exported constants,
 * dist-info), and the sub-libraries the installation's major needs. Reads
 * facts only: nothing is loaded or run. */
#include "verify_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cc_vf_layer_static(struct cc_vctx *v, cc_error *err)
{
        const cc_value *vers = v->iv.versions;
        cc_value *checks = cc_v_array(err), *libs = NULL, *ev = NULL;
        cc_strv disagree = {0};
        size_t i, nlib = 0;
        char hb[32], lb[32];

        if (checks == NULL)
                return -1;
        for (i = 0; i < cc_v_len(vers); i++) {
                cc_vw_version x;
                const char *src, *file;

                cc_vw_version_at(vers, i, &x, NULL);
                src = x.source;
                file = x.file;
                if (src == NULL || strcmp(src, "header") != 0 || file == NULL)
                        continue;
                /* cudnn_version.h (cudnn.h for cuDNN 7) over its _vN copy. */
                if (v->header.n == 0 || strncmp(cc_basename(file), "cudnn_version.h", 15) == 0) {
                        cudnnctl_ver_parse(x.version, &v->header);
                        free(v->header_file);
                        v->header_file = cc_strdup(err, file);
                }
        }
        libs = cc_v_array(err);
        if (libs == NULL)
                goto fail;
        for (i = 0; i < cc_v_len(vers); i++) {
                cc_vw_version x;
                const char *src;
                cudnnctl_ver lv;

                cc_vw_version_at(vers, i, &x, NULL);
                src = x.source;
                if (src == NULL || strcmp(src, "header") == 0 || strcmp(src, "header-sublibrary") == 0 ||
                    cudnnctl_ver_parse(x.version, &lv) < 0)
                        continue;
                nlib++;
                TRY(cc_v_push(libs,
                              cc_v_strf(err, "%s (%s%s%s)", x.version, src, x.file ? ", " : "", x.file ? x.file : ""),
                              err));
                if (v->header.n > 0 && !cc_vf_ver3_eq(&v->header, &lv))
                        TRY(cc_strv_pushf(&disagree, 1, err, "%s from %s %s", x.version, src, x.file ? x.file : ""));
        }
        ev = cc_v_object(err);
        if (ev == NULL)
                goto fail;
        TRY(cc_v_set_str(ev, "header", v->header.n ? cc_vf_vstr(&v->header, hb, sizeof(hb)) : NULL, err));
        TRY(cc_v_set_str(ev, "header_file", v->header_file, err));
        TRY(cc_v_set(ev, "library", libs, err));
        libs = NULL;
        if (v->header.n == 0 && nlib == 0)
                TRY(cc_vf_add(v, checks, "header-vs-library", "header and library versions", "not-checked", ev, err,
                              "neither the header nor the library tells a version"));
        else if (v->header.n == 0)
                TRY(cc_vf_add(
                    v, checks, "header-vs-library", "header and library versions", "not-checked", ev, err,
                    "no cuDNN header in this installation (cudnn_version.h / cudnn.h): nothing to compare the "
                    "library with"));
        else if (nlib == 0)
                TRY(cc_vf_add(v, checks, "header-vs-library", "header and library versions", "not-checked", ev, err,
                              "header %s, but no static source tells the library's version (the run-time layer does)",
                              cc_vf_vstr(&v->header, hb, sizeof(hb))));
        else if (disagree.n > 0)
                TRY(cc_vf_add(v, checks, "header-vs-library", "header and library versions", "failed", ev, err,
                              "header %s disagrees with the library: %s", cc_vf_vstr(&v->header, hb, sizeof(hb)),
                              disagree.v[0]));
        else
                TRY(cc_vf_add(v, checks, "header-vs-library", "header and library versions", "passed", ev, err,
                              "header %s = library (%zu source%s)", cc_vf_vstr(&v->header, hb, sizeof(hb)), nlib,
                              nlib == 1 ? "" : "s"));
        ev = NULL;
        /* The set of libraries its major needs. */
        ev = cc_v_object(err);
        if (ev == NULL)
                goto fail;
        TRY(cc_v_set(ev, "present", cc_v_strv(&v->lib_paths, err), err));
        TRY(cc_v_set(ev, "missing", cc_v_strv(&v->missing, err), err));
        TRY(cc_v_set_str(ev, "shim", v->shim, err));
        if (v->major == 0)
                TRY(cc_vf_add(v, checks, "library-set", "the libraries of its major", "not-checked", ev, err,
                              "the cuDNN major of this installation is not known"));
        else if (v->missing.n > 0)
                TRY(cc_vf_add(v, checks, "library-set", "the libraries of its major", "failed", ev, err,
                              "cuDNN %d needs %s, which is not in %s", v->major, v->missing.v[0],
                              v->lib_dir ? v->lib_dir : "this installation"));
        else
                TRY(cc_vf_add(v, checks, "library-set", "the libraries of its major", "passed", ev, err,
                              "all %zu libraries of cuDNN %d are there", v->lib_paths.n + 1, v->major));
        ev = NULL;
        /* A CUDA variant of the installer's layout: its import library, in
         * its own lib\<cuda>\x64 (what a program links against). */
        if (v->cuda_variant != NULL) {
                const char *lib = cc_vf_find_file(v, "cudnn.lib");

                ev = cc_v_object(err);
                if (ev == NULL || cc_v_set_str(ev, "import_library", lib, err) < 0)
                        goto fail;
                if (lib != NULL)
                        TRY(cc_vf_add(v, checks, "import-library", "the import library", "passed", ev, err, "%s", lib));
                else
                        TRY(cc_vf_add(v, checks, "import-library", "the import library", "failed", ev, err,
                                      "no cudnn.lib in lib\\%s\\x64: a program cannot link against the CUDA %s "
                                      "build",
                                      v->cuda_variant, v->cuda_variant));
                ev = NULL;
        }
        (void)lb;
        cc_strv_free(&disagree);
        return cc_vf_add_layer(v, "static", "header and library (static)", checks, err);
fail:
        cc_v_free(checks);
        cc_v_free(libs);
        cc_v_free(ev);
        cc_strv_free(&disagree);
        return -1;
}
