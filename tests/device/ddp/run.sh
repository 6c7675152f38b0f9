#!/usr/bin/env bash
# Issue 29, item 4 on two NVIDIA GPUs: collectives never hang under `opengpa profile`. A small torchrun DDP training
# (ddp_train.py: 2 ranks, NCCL, 3 steps) is profiled in every replay mode with a one-pass and a multi-pass set, each
# run with a timeout (a run that does not end is a hang). Runs from the stage build.sh made:
#   STAGE/tests/run.sh STAGE [RUN...]     results (ddp.log, ddp_summary.json, ncu.csv) in $OUT or /tmp/opengpa-ddp
# Checks (check_ddp.py, each PASS or FAIL with its figures):
#   every run: exit 0 in time, two reports (-o NAME.%r), each row naming its rank and GPU, one distinct GPU per
#     rank, NCCL kernels among the samples, both ranks' parameters equal at the end (DDP still correct)
#   kernel replay of the two-pass set: each NCCL launch timed in its own pass, the other group's metric left empty,
#     the rule's message in the report; every other launch has every metric
#   every run's kernels per rank = the one-pass run's; ncu --target-processes all lists the same per rank
#   a rank made slower (more micro-batches): `opengpa compare` names rank 1 the outlier
#   none with the two-pass set: refused, no hang; OPENGPA_PROFILE_COLLECTIVES=off: what the rule prevents
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[[ $# -ge 1 ]] || { echo "usage: $0 STAGE_DIR [RUN...]" >&2; exit 2; }
stage=$(cd "$1" && pwd) || exit 2
shift
out=${OUT:-/tmp/opengpa-ddp}
mkdir -p "$out"
cupti=""
for candidate in /usr/local/cuda/lib64/libcupti.so.13 /usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13; do
  [[ -e $candidate ]] && { cupti=$candidate; break; }
done
[[ -n $cupti ]] && export LD_LIBRARY_PATH="$(dirname "$cupti")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# NVLink multicast stays off (the machines' rule); quiet torchrun's thread warning.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 OMP_NUM_THREADS=1
export PYTHONUNBUFFERED=1
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,uuid,pci.bus_id --format=csv,noheader
echo "libcupti: ${cupti:-not found}; ncu: $(command -v ncu || echo none)"
exec python3 "$here/check_ddp.py" "$stage" "$out" "$@"
