#!/bin/bash
# `npm run bench -- gpu` from the unpacked GPU kit (built by `npm run bench:gpu-kit`): needs no network,
# no Node and no node_modules of the machine.
#   bash run.sh [config,config...]   default: GPU_BENCH_CONFIGS, else every named config but `small`
#                                    (with GPU_BENCH_SWIFTSHADER=1: small)
# Results: $OUT/results.jsonl (one JSON line per figure, as measured; a config stopped at its limit gets
# a line saying so), $OUT/log.txt (stderr, the machine). OUT defaults to ./gpu-bench-out.
# Every config runs under `timeout` at the limit the bench gives it (each of its processes has its own).
# Other knobs are the bench's (bench/gpu.ts): GPU_BENCH_WEIGHTS, GPU_BENCH_RUNS, GPU_BENCH_DENOISE_STEPS,
# GPU_BENCH_RUN_TIMEOUT_S, GPU_BENCH_DAWN_FLAGS (e.g. enable-dawn-features=vulkan_enable_f16_on_nvidia).
set -u
K=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/gpu-bench-out}
mkdir -p "$OUT"
RES=$OUT/results.jsonl
LOG=$OUT/log.txt
say() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$LOG" >&2; }

# the Vulkan loader and the GL dispatch libraries NVIDIA's driver links against: the machine's, else the kit's
if ! ldconfig -p 2>/dev/null | grep -q 'libvulkan.so.1 ' || ! ldconfig -p 2>/dev/null | grep -q 'libGLdispatch.so.0 '; then
  export LD_LIBRARY_PATH=$K/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  say "vulkan loader: the kit's ($K/lib)"
fi
# NVIDIA's driver where a container mounts it outside the loader's search path
NV_ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}" ] && [ "${GPU_BENCH_SWIFTSHADER:-0}" != 1 ] && [ -f "$NV_ICD" ]; then
  export VK_DRIVER_FILES=$NV_ICD VK_ICD_FILENAMES=$NV_ICD
  for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do [ -d "$d" ] && export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$d; done
  NV_EGL=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
  [ -f "$NV_EGL" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$NV_EGL
  say "vulkan ICD: $NV_ICD"
fi
command -v nvidia-smi >/dev/null && timeout 20 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >>"$LOG" 2>&1
say "kit: $(tr -d '\n' <"$K/KIT_VERSION.json"); host $(hostname), $(nproc) cpus"

CONFIGS=${1:-${GPU_BENCH_CONFIGS:-}}
if [ -z "$CONFIGS" ]; then
  if [ "${GPU_BENCH_SWIFTSHADER:-0}" = 1 ]; then CONFIGS=small; else CONFIGS=preview-s,fullwidth-2,fullwidth-2-full,consisid; fi
fi
for c in ${CONFIGS//,/ }; do
  limit=$(GPU_BENCH_CONFIGS=$c "$K/node" "$K/gpu-bench.mjs" --limit "$c" 2>>"$LOG") || {
    echo "{\"bench\":\"gpu\",\"metric\":\"$c error\",\"value\":\"no such config (see log.txt)\",\"unit\":\"\",\"target\":null,\"ok\":false}" >>"$RES"
    continue
  }
  say "$c: up to ${limit} s"
  GPU_BENCH_CONFIGS=$c timeout -k 10 "$limit" "$K/node" "$K/gpu-bench.mjs" >>"$RES" 2>>"$LOG"
  rc=$?
  if [ $rc = 124 ] || [ $rc = 137 ]; then
    echo "{\"bench\":\"gpu\",\"metric\":\"$c error\",\"value\":\"stopped at the config's ${limit} s limit\",\"unit\":\"\",\"target\":null,\"ok\":false}" >>"$RES"
  fi
  say "$c: exit $rc"
done
say "results: $RES"
