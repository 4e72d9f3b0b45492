/* The registry's table (findings.def) and the relations by which the runner
 * folds one finding into another. */
#include "registry.h"

#include <string.h>

#include "../common.h"

static const struct cc_finding_def defs[] = {
#define CC_FINDING(sym, id, num, area, sev, check) {CC_F_##sym, id, num, area, sev, #check, check},
#include "findings.def"
#undef CC_FINDING
};

/* Each row says why the folder's finding explains the victim's: without the
 * folding, one cause would be reported several times, by checks that each
 * saw one of its consequences. The rows of one folder keep together; the
 * folders fold in this order, and a finding already folded is not folded
 * again (a later folder may still fold an earlier folder, with what it
 * says, but not what it folded). */
static const struct cc_relation relations[] = {
    /* cuDNN 8 DLLs of two releases pulled from two folders on Windows: the
     * version checks' mismatch of the same load is this mixed set. */
    {CC_F_WIN_SUBLIB_127, CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_SUBJ_NAMES_TARGET, CC_REL_SUPERSEDES},
    /* A renamed DLL (cudnn64_7.dll copied to cudnn64_8.dll) makes its
     * installation look like a cuDNN 8 without its sub-libraries. */
    {CC_F_RENAMED_DLL, CC_F_WIN_SUBLIB_126, CC_SUBJ_SUBLIB, CC_REL_EXPLAINS},
    {CC_F_RENAMED_DLL, CC_F_V9_SUBLIBRARY_LOADING_FAILED, CC_SUBJ_SUBLIB, CC_REL_EXPLAINS},
    {CC_F_RENAMED_DLL, CC_F_V9_SUBLIB_UNLOADABLE, CC_SUBJ_SUBLIB, CC_REL_EXPLAINS},
    {CC_F_RENAMED_DLL, CC_F_LINUX_V8_HELPER_RPATH, CC_SUBJ_SUBLIB, CC_REL_EXPLAINS},
    /* A 32-bit DLL found first (error 193): whatever else is said of the
     * installation that is that 32-bit copy, and every library that cannot
     * be loaded because the loader stops at that DLL. */
    {CC_F_WIN_WRONG_BITNESS, CC_F_ANY, CC_SUBJ_INSTALLATION, CC_REL_EXPLAINS},
    {CC_F_WIN_WRONG_BITNESS, CC_F_ANY, CC_SUBJ_BAD_IMAGE, CC_REL_EXPLAINS},
    /* No program reaches the installation's folder (not on PATH, or the
     * cuDNN 9 installer's subfolder): its sub-libraries and zlibwapi.dll,
     * there in that folder, are "missing" only because of that. */
    {CC_F_WIN_SUBLIB_126, CC_F_WIN_SUBLIB_126, CC_SUBJ_UNREACHED, CC_REL_EXPLAINS},
    {CC_F_WIN_SUBLIB_126, CC_F_V9_SUBLIBRARY_LOADING_FAILED, CC_SUBJ_UNREACHED, CC_REL_EXPLAINS},
    {CC_F_WIN_SUBLIB_126, CC_F_WIN_ZLIBWAPI_MISSING, CC_SUBJ_UNREACHED, CC_REL_EXPLAINS},
    {CC_F_WIN_CUDNN9_SUBDIR, CC_F_WIN_SUBLIB_126, CC_SUBJ_UNREACHED, CC_REL_EXPLAINS},
    {CC_F_WIN_CUDNN9_SUBDIR, CC_F_V9_SUBLIBRARY_LOADING_FAILED, CC_SUBJ_UNREACHED, CC_REL_EXPLAINS},
    {CC_F_WIN_CUDNN9_SUBDIR, CC_F_WIN_ZLIBWAPI_MISSING, CC_SUBJ_UNREACHED, CC_REL_EXPLAINS},
    /* An old copy first in the search order: the headers beside the newer
     * copy disagree with the library a program runs, and the newer copies'
     * sets pull its sub-libraries (a mixed set). */
    {CC_F_WIN_STALE_DLL_SHADOW, CC_F_HEADER_LIB_MISMATCH, CC_SUBJ_NAMES_WINNER, CC_REL_EXPLAINS},
    {CC_F_WIN_STALE_DLL_SHADOW, CC_F_WIN_SUBLIB_127, CC_SUBJ_INSTALLATION, CC_REL_EXPLAINS},
    {CC_F_WIN_STALE_DLL_SHADOW, CC_F_WIN_SUBLIB_127, CC_SUBJ_NAMES_SHADOWED, CC_REL_EXPLAINS},
    {CC_F_WIN_STALE_DLL_SHADOW, CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_SUBJ_INSTALLATION, CC_REL_EXPLAINS},
    {CC_F_WIN_STALE_DLL_SHADOW, CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_SUBJ_NAMES_SHADOWED, CC_REL_EXPLAINS},
};

const struct cc_finding_def *cc_finding_def(enum cc_fid fid)
{
        return (size_t)fid < CC_ARRAY_LEN(defs) ? &defs[fid] : NULL;
}

enum cc_fid cc_fid_of(const char *id)
{
        size_t i;

        for (i = 0; id != NULL && i < CC_ARRAY_LEN(defs); i++)
                if (strcmp(defs[i].id, id) == 0)
                        return defs[i].fid;
        return CC_F_NONE;
}

const char *cc_fid_id(enum cc_fid fid)
{
        const struct cc_finding_def *f = cc_finding_def(fid);

        return f != NULL ? f->id : "?";
}

const struct cc_relation *cc_relations(size_t *n)
{
        *n = CC_ARRAY_LEN(relations);
        return relations;
}
