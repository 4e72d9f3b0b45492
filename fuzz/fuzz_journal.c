/* Fuzz target for the transaction journal's reader (what recovery trusts to
 * undo a transaction): parse, then check what it hands out: every
 * operation's path is one the engine accepts (relative, no "..", not in the
 * engine's own directory; a registry value's splits into hive, key and
 * value), its kind is known, a link target only on a place
 * or replace, the steps that began are within the plan, and an error is
 * one line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "txn/txn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        cc_error err = {0};
        cc_txn_info info;
        unsigned char *begun = NULL;
        volatile size_t sink = 0;
        int whole = 0;
        size_t i;

        if (cc_txn_journal_parse((const char *)data, size, &info, &begun, &whole, &err) != 0) {
                if (strchr(err.msg, '\n') != NULL || info.ops != NULL || begun != NULL)
                        abort();
                return 0;
        }
        if (info.label != NULL)
                sink += strlen(info.label);
        for (i = 0; i < info.n; i++) {
                const cc_txn_op *o = &info.ops[i];

                if (!cc_txn_path_ok(o->path) || o->kind < CC_TXN_MKDIR || o->kind >= CC_TXN_KINDS)
                        abort();
                if (o->kind == CC_TXN_SETREG) {
                        /* a registry value's path: hive, key and value name */
                        char hive[5];
                        char *key = NULL, *value = NULL;
                        cc_error rerr = {0};

                        if (cc_txn_reg_split(o->path, hive, &key, &value, &rerr) < 0)
                                abort();
                        free(key);
                        free(value);
                }
                if (o->link != NULL && o->kind != CC_TXN_PLACE && o->kind != CC_TXN_REPLACE)
                        abort();
                if (o->sha256[0] && strlen(o->sha256) != 64)
                        abort();
                sink += (size_t)(whole && begun != NULL ? begun[i] : 0);
        }
        if (!whole && begun != NULL)
                abort();
        free(begun);
        for (i = 0; i < info.n; i++) {
                free(info.ops[i].path);
                free(info.ops[i].link);
        }
        free(info.ops);
        free(info.label);
        (void)sink;
        return 0;
}
