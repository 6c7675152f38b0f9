"""Plots of a profile's results with matplotlib, written to PNG: a roofline and a per-region bar chart.

The quantities come from the counters collected (nothing is estimated):

- time: GPUTime (ns), the GPU's busy time for the region;
- FLOPs: FP32 operations executed, 2 x FFMA + FADD + FMUL thread instructions (CUPTI's SASS counters
  sm__sass_thread_inst_executed_op_{ffma,fadd,fmul}_pred_on.sum), plus the tensor pipe's operations
  (sm__ops_path_tensor_src_*) where collected;
- DRAM bytes: LocalVidMemBytes (bytes read from and written to DRAM), else FetchSize + WriteSize (KB).

ROOFLINE_COUNTERS is a set that gives all three; collect it with opengpa.profile (it takes several passes:
use p.run). The ceilings are the caller's: measure them on the device (a large device-to-device copy and a
large matrix product, docs/python.md) rather than taking a datasheet's.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Mapping, Optional, Union

import numpy as np

from .results import Results

FP32_COUNTERS = ("sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
                 "sm__sass_thread_inst_executed_op_fadd_pred_on.sum",
                 "sm__sass_thread_inst_executed_op_fmul_pred_on.sum")
# Tensor-pipe operations: each is a multiply or an add of the matrix product (2 per multiply-accumulate),
# as checked on the H100 against 2*M*N*K (docs/validation.md, "Python").
TENSOR_COUNTERS = ("sm__ops_path_tensor_src_bf16_dst_fp32.sum", "sm__ops_path_tensor_src_fp16.sum",
                   "sm__ops_path_tensor_src_tf32_dst_fp32.sum")
ROOFLINE_COUNTERS = ("GPUTime", "LocalVidMemBytes") + FP32_COUNTERS + TENSOR_COUNTERS


def _column(results, name):
    return results[name] if name in results else None


def flops(results: Results) -> np.ndarray:
    """FLOPs executed per region (numpy array), from the FP32 and tensor counters collected."""
    ffma, fadd, fmul = (_column(results, name) for name in FP32_COUNTERS)
    total = np.zeros(len(results))
    found = False
    if ffma is not None:
        total += 2 * ffma
        found = True
    for column in (fadd, fmul) + tuple(_column(results, name) for name in TENSOR_COUNTERS):
        if column is not None:
            total += column
            found = True
    if not found:
        raise KeyError("no FLOP counter was collected: profile with opengpa.plots.ROOFLINE_COUNTERS")
    return total


def dram_bytes(results: Results) -> np.ndarray:
    """Bytes moved to and from DRAM per region (numpy array)."""
    if "LocalVidMemBytes" in results:
        return results["LocalVidMemBytes"]
    if "FetchSize" in results and "WriteSize" in results:
        return (results["FetchSize"] + results["WriteSize"]) * 1024.0
    raise KeyError("no DRAM counter was collected: add LocalVidMemBytes (or FetchSize and WriteSize)")


def seconds(results: Results) -> np.ndarray:
    """GPU time per region in seconds (numpy array), from GPUTime (ns)."""
    if "GPUTime" not in results:
        raise KeyError("GPUTime was not collected")
    return results["GPUTime"] * 1e-9


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as pyplot
    return pyplot


def roofline(results: Results, path: Union[str, os.PathLike], peak_flops: Union[float, Mapping[str, float]],
             peak_bandwidth: float, title: Optional[str] = None, label_top: int = 8) -> Dict[str, Any]:
    """Writes a roofline PNG to `path`: each region at (FLOPs / DRAM byte, FLOP/s) under the ceilings.

    `peak_bandwidth`: DRAM bytes/s. `peak_flops`: FLOP/s, or {name: FLOP/s} for several compute roofs
    (e.g. {"bf16 tensor": 7.5e14, "fp32 FMA": 5e13}). Returns the points as a dict of arrays."""
    work, traffic, time = flops(results), dram_bytes(results), seconds(results)
    valid = (time > 0) & (traffic > 0) & (work > 0)
    intensity = np.where(valid, work / np.where(traffic > 0, traffic, 1), np.nan)
    rate = np.where(valid, work / np.where(time > 0, time, 1), np.nan)
    roofs = peak_flops if isinstance(peak_flops, dict) else {"compute": peak_flops}
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(figsize=(8, 5.5))
    ridges = [peak / peak_bandwidth for peak in roofs.values()]
    low = min([np.nanmin(intensity) if valid.any() else min(ridges)] + ridges) / 10
    high = max([np.nanmax(intensity) if valid.any() else max(ridges)] + ridges) * 10
    x = np.logspace(np.log10(low), np.log10(high), 400)
    axes.loglog(x, x * peak_bandwidth, color="gray", linewidth=1, linestyle=":",
                label=f"DRAM {peak_bandwidth / 1e12:.2f} TB/s")
    for (name, peak), style in zip(sorted(roofs.items(), key=lambda item: -item[1]), ("-", "--", "-.", ":")):
        axes.loglog(x, np.minimum(peak, x * peak_bandwidth), color="black", linewidth=1.5, linestyle=style,
                    label=f"{name} {peak / 1e12:.1f} TFLOP/s")
    axes.scatter(intensity[valid], rate[valid], s=40, zorder=3)
    order = [row for row in np.argsort(-np.nan_to_num(time)) if valid[row]][:label_top]
    for rank, row in enumerate(sorted(order, key=lambda r: intensity[r])):
        # Neighbours alternate above and below their point so that close points stay readable.
        axes.annotate(results.regions[row], (intensity[row], rate[row]), fontsize=7,
                      xytext=(5, 8 if rank % 2 == 0 else -12), textcoords="offset points")
    axes.set_xlabel("arithmetic intensity (FLOP per DRAM byte)")
    axes.set_ylabel("achieved FLOP/s")
    axes.set_title(title or f"Roofline on {results.device_name}")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    pyplot.close(figure)
    return {"region": list(results.regions), "intensity": intensity, "flops_per_second": rate}


def bars(results: Results, path: Union[str, os.PathLike], counter: str = "GPUTime", top: int = 20,
         title: Optional[str] = None) -> Any:
    """Writes a horizontal bar chart PNG of `counter` per region, largest first (at most `top` bars)."""
    values = results[counter]
    usage = next(c.usage for c in results.counters if c.name.lower() == counter.lower())
    order = np.argsort(-values)[:top][::-1]
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(figsize=(9, 0.35 * len(order) + 1.5))
    axes.barh([results.regions[i] for i in order], values[order])
    axes.set_xlabel(f"{counter} ({usage})")
    axes.set_title(title or f"{counter} per region on {results.device_name}")
    axes.tick_params(axis="y", labelsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    pyplot.close(figure)
    return [results.regions[i] for i in order[::-1]]
