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
    /* Headers of one release beside libraries of another (one installation):
     * the proof's header against cudnnGetVersion, and its compiled program
     * that runs another release than it was built with. */
    {CC_F_HEADER_LIB_MISMATCH, CC_F_HEADER_LIB_MISMATCH, CC_SUBJ_INSTALLATION, CC_REL_SUPERSEDES},
    {CC_F_HEADER_LIB_MISMATCH, CC_F_HOST_COMPILER_TOOLSET, CC_SUBJ_INSTALLATION, CC_REL_CAUSES},
    /* No usable driver or GPU: the GPU work --gpu asked for cannot run. */
    {CC_F_NOT_INITIALIZED, CC_F_GPU_WORK_WRONG, CC_SUBJ_INSTALLATION, CC_REL_CAUSES},
    /* Broken links of an installation: whatever else is said of it (its
     * set incomplete, its probes failing) is what the links make it. */
    {CC_F_LINUX_BROKEN_SYMLINKS, CC_F_ANY, CC_SUBJ_INSTALLATION, CC_REL_EXPLAINS},
    /* A load of cuDNN 9 that takes sub-libraries of another release (deps):
     * the directory that gives them mixes every load that reaches it, one
     * cause; the proof of the same installation sees that mix (the version
     * checks' 1002, modules from elsewhere), and its GPU work, a crash, the
     * header against the library it reports fail because of it. */
    {CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_SUBJ_MIX_SOURCE, CC_REL_EXPLAINS},
    {CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_SUBJ_INSTALLATION, CC_REL_SUPERSEDES},
    {CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_F_V9_SUBLIBRARY_LOADING_FAILED, CC_SUBJ_INSTALLATION, CC_REL_EXPLAINS},
    {CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_F_GPU_WORK_WRONG, CC_SUBJ_INSTALLATION, CC_REL_CAUSES},
    {CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_F_CUDNN_PROBE_CRASHED, CC_SUBJ_INSTALLATION, CC_REL_CAUSES},
    {CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_F_HEADER_LIB_MISMATCH, CC_SUBJ_INSTALLATION, CC_REL_CAUSES},
    /* ... and what a framework whose process takes that directory's cuDNN
     * shows: the older run time PyTorch refuses, its mixed load, the copy it
     * does not load */
    {CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_F_RUNTIME_OLDER_THAN_BUILD, CC_SUBJ_MIX_SOURCE, CC_REL_CAUSES},
    {CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_F_MAJOR_MISMATCH, CC_SUBJ_MIX_SOURCE, CC_REL_CAUSES},
    {CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_F_FRAMEWORK_MIXED_LOAD, CC_SUBJ_MIX_SOURCE, CC_REL_CAUSES},
    {CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_F_FRAMEWORK_OTHER_CUDNN, CC_SUBJ_MIX_SOURCE, CC_REL_EXPLAINS},
    /* one folder holding two releases, of which the load takes one */
    {CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_F_SPLIT_DIRECTORIES, CC_SUBJ_INSTALLATION, CC_REL_EXPLAINS},
    /* the same for cuDNN 8's helpers on Linux */
    {CC_F_LINUX_V8_MIXED_HELPERS, CC_F_LINUX_V8_MIXED_HELPERS, CC_SUBJ_MIX_SOURCE, CC_REL_EXPLAINS},
    {CC_F_LINUX_V8_MIXED_HELPERS, CC_F_LINUX_V8_MIXED_HELPERS, CC_SUBJ_INSTALLATION, CC_REL_SUPERSEDES},
    {CC_F_LINUX_V8_MIXED_HELPERS, CC_F_GPU_WORK_WRONG, CC_SUBJ_INSTALLATION, CC_REL_CAUSES},
    {CC_F_LINUX_V8_MIXED_HELPERS, CC_F_CUDNN_PROBE_CRASHED, CC_SUBJ_INSTALLATION, CC_REL_CAUSES},
    /* A sub-library missing from an installation's set (discovery, deps):
     * the proof's 1008 and its GPU work's failure of that installation; and
     * when the real search takes the missing ones from another directory of
     * the same release, that split load. */
    {CC_F_V9_SUBLIBRARY_LOADING_FAILED, CC_F_V9_SUBLIBRARY_LOADING_FAILED, CC_SUBJ_INSTALLATION, CC_REL_SUPERSEDES},
    {CC_F_V9_SUBLIBRARY_LOADING_FAILED, CC_F_GPU_WORK_WRONG, CC_SUBJ_INSTALLATION, CC_REL_CAUSES},
    {CC_F_V9_SUBLIBRARY_LOADING_FAILED, CC_F_SPLIT_DIRECTORIES, CC_SUBJ_INSTALLATION, CC_REL_EXPLAINS},
    {CC_F_V9_SUBLIB_UNLOADABLE, CC_F_SPLIT_DIRECTORIES, CC_SUBJ_INSTALLATION, CC_REL_EXPLAINS},
    /* ... or of another release: the mix its load makes is its consequence */
    {CC_F_V9_SUBLIB_UNLOADABLE, CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, CC_SUBJ_INSTALLATION, CC_REL_CAUSES},
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
