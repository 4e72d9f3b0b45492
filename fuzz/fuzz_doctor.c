/* Fuzz target: the doctor's checks on facts of any shape (what `doctor
 * --facts FILE` reads from another machine). The input is parsed as JSON
 * and used as the "facts" of a doctor document, on a Linux and a Windows
 * machine, live and static; the checks and the text renderer must never
 * crash, and every finding must have an id, a severity and a summary. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor.h"
#include "formats/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        cc_value *facts = NULL;
        cc_error err;
        int k;

        if (cc_json_parse((const char *)data, size, 0, &facts, &err) < 0)
                return 0;
        for (k = 0; k < 4; k++) {
                cc_value *doc = cc_v_object(&err), *mach = cc_v_object(&err);
                const cc_value *fs;
                char *text = NULL;
                size_t i;

                if (cc_v_set_str(doc, "command", "doctor", &err) < 0 || cc_v_set(doc, "machine", mach, &err) < 0 ||
                    cc_v_set_str(mach, "system", k & 1 ? "windows" : "linux", &err) < 0 ||
                    cc_v_set_bool(mach, "live", k & 2, &err) < 0 ||
                    cc_v_set(doc, "facts", cc_v_copy(facts, &err), &err) < 0)
                        abort();
                if (cc_doctor_run_checks(doc, &err) < 0) {
                        if (err.code != CC_ERR_NOMEM)
                                abort();
                        cc_v_free(doc);
                        continue;
                }
                fs = cc_v_get(doc, "findings");
                for (i = 0; i < cc_v_len(fs); i++) {
                        const cc_value *f = cc_v_at(fs, i);

                        if (cc_v_get_str(f, "id") == NULL || cc_v_get_str(f, "severity") == NULL ||
                            cc_v_get_str(f, "summary") == NULL || cc_v_type(cc_v_get(f, "evidence")) != CUDNNCTL_OBJECT)
                                abort();
                }
                if (cudnnctl_doctor_text(doc, k & 1, k & 2, &text, &err) < 0 && err.code != CC_ERR_NOMEM)
                        abort();
                free(text);
                cc_v_free(doc);
        }
        cc_v_free(facts);
        return 0;
}
