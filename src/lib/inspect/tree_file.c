/* One file of a machine's tree, read in place for the commands that show
 * what they found (which, deps): its versions from every static source, what
 * its name and its content disagree about, and whether it is a program. */
#include "inspect.h"

#include "../facts/views.h"
#include "../formats/elf.h"
#include "../formats/names.h"
#include "../formats/pe.h"

#include <stdlib.h>
#include <string.h>

#define MAX_VERSION_FILE ((size_t)4 << 30)

/* A file named for one cuDNN major (cudnn64_8.dll, libcudnn.so.8) whose
 * content says another (its version resource, exported constants, its
 * SONAME or export name): a renamed copy (the catalog's "renamed-dll"). */
static int name_problems(const char *name, const cc_value *obj, cc_value *problems, cc_error *err)
{
        cc_libname ln, in;
        cc_vw_ins_facts f;
        cc_vw_ins_elf elf;
        cc_vw_ins_pe pe;
        const char *inner;
        size_t i;

        cc_vw_ins_facts_read(obj, &f, NULL);
        cc_vw_ins_elf_read(f.elf, &elf, NULL);
        cc_vw_ins_pe_read(f.pe, &pe, NULL);
        inner = elf.soname != NULL ? elf.soname : pe.export_name;
        if (cc_name_library(name, &ln) < 0 || ln.major < 0)
                return 0;
        for (i = 0; i < cc_v_len(f.versions); i++) {
                cc_vw_version e;
                const char *src, *ver, *comp;
                cudnnctl_ver v;

                cc_vw_version_at(f.versions, i, &e, NULL);
                src = e.source;
                ver = e.version;
                comp = e.component;

                if (src == NULL || ver == NULL || strcmp(src, "file-name") == 0 || (comp && strcmp(comp, "cudnn") != 0))
                        continue;
                /* a driver-style 6.14.11.x resource is not a cuDNN version: no claim either way */
                if (cudnnctl_ver_parse(ver, &v) == 0 && cc_cudnn_ver_plausible(&v) && v.part[0] != ln.major &&
                    cc_v_push(problems,
                              cc_v_strf(err, "named for cuDNN %d but its %s says %s: a renamed copy of another major",
                                        ln.major, src, ver),
                              err) < 0)
                        return -1;
        }
        if (inner != NULL && cc_name_library(inner, &in) == 0 && in.major >= 0 && in.major != ln.major &&
            cc_v_push(problems,
                      cc_v_strf(err, "named %s but it calls itself %s (its %s): a renamed copy", name, inner,
                                f.elf != NULL ? "SONAME" : "export name"),
                      err) < 0)
                return -1;
        return 0;
}

cc_value *cc_file_versions_ex(cc_machine *m, const char *vpath, cc_value **problems, cc_error *err)
{
        cc_map mp;
        cc_error merr = {0};
        cc_value *obj, *v;
        char *canon;
        const char *name;

        if (problems)
                *problems = NULL;
        /* the file's own name: a link's name is not the file's */
        canon = cc_tree_canonical(m->tree, vpath, &merr);
        name = cc_basename(canon ? canon : vpath);
        if (cc_tree_map(m->tree, vpath, MAX_VERSION_FILE, &mp, &merr) < 0) {
                free(canon);
                if (merr.code == CC_ERR_NOMEM) {
                        *err = merr;
                        return NULL;
                }
                return cc_v_array(err);
        }
        obj = cc_v_object(err);
        if (obj == NULL ||
            cc_inspect_bytes(name, mp.data, mp.size, CUDNNCTL_INSPECT_NO_ARCHIVE_MEMBERS | CC_INSPECT_VERSIONS_ONLY,
                             obj, err) < 0) {
                cc_unmap(&mp);
                cc_v_free(obj);
                free(canon);
                return NULL;
        }
        if (cc_map_changed(&mp)) {
                /* truncated or rewritten while read: no version from it, as for a file that cannot be read */
                cc_unmap(&mp);
                cc_v_free(obj);
                free(canon);
                return cc_v_array(err);
        }
        cc_unmap(&mp);
        if (problems) {
                *problems = cc_v_array(err);
                if (*problems == NULL || name_problems(name, obj, *problems, err) < 0) {
                        cc_v_free(*problems);
                        *problems = NULL;
                        cc_v_free(obj);
                        free(canon);
                        return NULL;
                }
        }
        free(canon);
        v = cc_v_take(obj, CC_K(ins_facts, versions));
        cc_v_free(obj);
        return v ? v : cc_v_array(err);
}

cc_value *cc_bytes_versions(const char *name, const uint8_t *data, size_t size, cc_error *err)
{
        cc_value *obj = cc_v_object(err), *v;

        if (obj == NULL ||
            cc_inspect_bytes(name, data, size, CUDNNCTL_INSPECT_NO_ARCHIVE_MEMBERS | CC_INSPECT_VERSIONS_ONLY, obj,
                             err) < 0) {
                cc_v_free(obj);
                return NULL;
        }
        v = cc_v_take(obj, CC_K(ins_facts, versions));
        cc_v_free(obj);
        return v ? v : cc_v_array(err);
}

cc_value *cc_file_versions(cc_machine *m, const char *vpath, cc_error *err)
{
        return cc_file_versions_ex(m, vpath, NULL, err);
}

int cc_is_program(cc_machine *m, const char *vpath)
{
        cc_map mp;
        cc_error e = {0};
        int prog = 0;

        if (cc_tree_map(m->tree, vpath, MAX_VERSION_FILE, &mp, &e) < 0)
                return 0;
        if (cc_elf_is(mp.data, mp.size)) {
                cc_elf *elf = NULL;

                if (cc_elf_parse_opts(mp.data, mp.size, CC_ELF_NO_SYMBOLS, &elf, &e) == 0) {
                        prog = elf->interp != NULL;
                        cc_elf_free(elf);
                }
        } else if (cc_pe_is(mp.data, mp.size)) {
                cc_pe *pe = NULL;

                if (cc_pe_parse(mp.data, mp.size, &pe, &e) == 0) {
                        prog = !pe->is_dll;
                        cc_pe_free(pe);
                }
        }
        if (cc_map_changed(&mp))
                prog = 0; /* changed while read: not judged */
        cc_unmap(&mp);
        return prog;
}
