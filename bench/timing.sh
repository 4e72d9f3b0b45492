# Sourced by the benchmarks: wall-clock helpers. Needs $rounds.
# stamp VAR: the wall clock in microseconds into VAR, without a fork
# (bash 5's EPOCHREALTIME). A `$(date ...)` costs a fork and an exec, about a
# millisecond, and fell inside every interval measured: the short commands'
# ratios came out nearer 1 than they are.
stamp() {
        if [ -n "${EPOCHREALTIME:-}" ]; then
                local t=${EPOCHREALTIME/[.,]/}
                printf -v "$1" '%s' "$((10#$t))"
        else
                printf -v "$1" '%s' "$(($(date +%s%N) / 1000))"
        fi
}
# best CMD...: the best wall time in microseconds of $rounds runs
best() {
        local b=0 t0 t1 t i
        for ((i = 0; i < rounds; i++)); do
                stamp t0
                "$@" >/dev/null 2>&1 || true
                stamp t1
                t=$((t1 - t0))
                { [ $b -eq 0 ] || [ $t -lt $b ]; } && b=$t
        done
        echo $b
}
# ratio A B: B / A with two decimals ("-" when A is 0)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "-" }'; }
# guide_program FILE: the guide's minimal cudnnCreate/cudnnGetVersion program
guide_program() {
        cat >"$1" <<'C'
#include <stdio.h>
#include "cudnn.h"
int main(void)
{
        cudnnHandle_t h;
        cudnnStatus_t s = cudnnCreate(&h);
        printf("%d.%d.%d %zu %d\n", CUDNN_MAJOR, CUDNN_MINOR, CUDNN_PATCHLEVEL, cudnnGetVersion(), (int)s);
        if (s == CUDNN_STATUS_SUCCESS)
                cudnnDestroy(h);
        return 0;
}
C
}
