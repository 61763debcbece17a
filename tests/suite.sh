#!/usr/bin/env bash
# The whole suite, as `make test` runs it. Every step runs even when one fails; the failed ones are listed at the
# end and the exit status is non-zero, so a failure in one step never hides the state of the others.
#   1. pytest: unit, property, conformance and browser tests with the docstring examples;
#   2. the conformance suites again under each other CPU kernel setting of torch's that this processor has
#      (torch's last bits follow the processor's kernels; ours must be what torch prints on one of them);
#   3. every lesson under nbval-lax;  4. every lesson again in the Binder environment: a fresh venv built from
#   binder/ alone (tests/binder_lessons.sh; skipped, saying why, when a wheel cannot be had offline);
#   5. the golden notebooks (committed with outputs) under strict nbval.
# An ATEN_CPU_CAPABILITY set from outside is respected: everything runs under it, and only under it.
set -u
PYTHON=${PYTHON:-.venv/bin/python}
failed=()

step() {  # step NAME COMMAND...: run it, remember NAME if it fails
    local name=$1; shift
    echo "== make test: $name"
    "$@" || failed+=("$name")
}

step "pytest" "$PYTHON" -m pytest
if [ -n "${ATEN_CPU_CAPABILITY:-}" ]; then
    echo "== make test: ATEN_CPU_CAPABILITY=$ATEN_CPU_CAPABILITY set from outside: conformance ran under it only"
else
    native=$("$PYTHON" -c "import torch; print(torch.backends.cpu.get_cpu_capability().lower())")
    settings=$("$PYTHON" tests/conformance/kernels.py --list)
    echo "== make test: torch's kernel settings on this processor: $settings (native: $native)"
    for pair in $settings; do
        IFS=: read -r kernel isa mkl <<< "$pair"
        [ "$kernel" = "$native" ] && continue  # step 1 ran under it
        for suite in tests/conformance tests/conformance_nn; do  # one at a time: both have a conftest.py
            step "$suite under ATEN_CPU_CAPABILITY=$kernel ONEDNN_MAX_CPU_ISA=$isa MKL_ENABLE_INSTRUCTIONS=$mkl" \
                env ATEN_CPU_CAPABILITY="$kernel" ONEDNN_MAX_CPU_ISA="$isa" MKL_ENABLE_INSTRUCTIONS="$mkl" \
                "$PYTHON" -m pytest -q "$suite"
        done
    done
fi
step "lessons (nbval-lax)" "$PYTHON" -m pytest --nbval-lax --nbval-current-env notebooks
step "lessons in the Binder environment (built from binder/ alone)" env PYTHON="$PYTHON" bash tests/binder_lessons.sh
step "golden notebooks (strict nbval)" "$PYTHON" -m pytest --nbval --nbval-current-env \
    --nbval-sanitize-with tests/golden/sanitize.cfg tests/golden

if [ ${#failed[@]} -gt 0 ]; then
    echo "== make test FAILED in ${#failed[@]} step(s):"
    printf '   - %s\n' "${failed[@]}"
    exit 1
fi
echo "== make test: every step passed"
