#!/usr/bin/env python3
"""Issue 36's multi-pass set on known kernels (gputime_device_check --workload; --describe gives each kernel's
FFMA thread instructions and copied bytes): run by run.sh step 4.

  - auto must refuse the set before the program runs (exit 2), naming the metrics that need several passes alone;
  - the set's metrics that fit a pass, collected by auto (application replay, one run per pass), must be one pass's
    values: FFMA thread instructions exact, the copy's DRAM reads within 2% of its buffer;
  - --replay-mode kernel collects the whole set as asked, with its note; its values beside the one-pass ones are
    printed (INFO), the reason auto refuses.

Usage: replay_check.py DESCRIBE.csv REFUSAL_EXIT REFUSAL_STDERR ONE_PASS.csv KERNEL.csv KERNEL_STDERR
Exit code: the number of failures."""
import csv
import sys

SET = ["smsp__inst_executed.sum", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "dram__bytes_read.sum",
       "dram__bytes_write.sum", "lts__t_sector_hit_rate.pct", "sm__throughput.avg.pct_of_peak_sustained_elapsed",
       "gpu__time_duration.sum"]
SHORT = {"smsp__inst_executed.sum": "inst", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": "FFMA",
         "dram__bytes_read.sum": "DRAM rd", "dram__bytes_write.sum": "DRAM wr", "lts__t_sector_hit_rate.pct": "L2 hit%",
         "lts__t_request_hit_rate.pct": "L2 req hit%", "sm__throughput.avg.pct_of_peak_sustained_elapsed": "SM thr%",
         "gpu__time_duration.sum": "time ns"}
failures = 0


def check(ok, what, detail):
    global failures
    failures += not ok
    print(f"{'PASS' if ok else 'FAIL'}  {what:<60} {detail}")


def rows(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except OSError as error:
        print(f"cannot read {path}: {error}")
        return []


def main():
    kernels = rows(sys.argv[1])
    refusal_exit = open(sys.argv[2]).read().strip()
    refusal = open(sys.argv[3]).read()
    one = rows(sys.argv[4])
    replayed = rows(sys.argv[5])
    replay_stderr = open(sys.argv[6]).read()

    check(refusal_exit == "2" and "sm__throughput.avg.pct_of_peak_sustained_elapsed (" in refusal
          and "lts__t_sector_hit_rate.pct (" in refusal, "auto refuses the set before the program runs",
          f"exit {refusal_exit}: {refusal.strip()[:160]}")
    check(len(one) == len(kernels), "one pass per metric: one row per launch", f"{len(one)} of {len(kernels)}")
    for kernel, row in zip(kernels, one):
        ffma = float(kernel["ffma_thread_instructions"])
        if ffma > 0:
            got = float(row["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"])
            check(got == ffma, f"FFMA {kernel['label']} (one pass)", f"{got:.0f} vs {ffma:.0f} from the kernel")
        read = float(kernel["bytes_read"])
        if read > 0:
            got = float(row["dram__bytes_read.sum"])
            check(abs(got - read) <= 0.02 * read, f"DRAM reads {kernel['label']} (one pass)",
                  f"{got:.0f} vs {read:.0f} bytes ({100 * (got / read - 1):+.2f}%)")
            written = float(row["dram__bytes_write.sum"])
            expected = float(kernel["bytes_written"])
            print(f"INFO  DRAM writes {kernel['label']} (one pass): {written:.0f} of {expected:.0f} bytes"
                  " (lines still dirty in L2 when the range ends are written back after it)")
    check("kernel replay of" in replay_stderr and len(replayed) == len(kernels),
          "--replay-mode kernel collects the set, with its note", f"{len(replayed)} rows")
    print("\nkernel replay / one pass, per launch (the same metric; L2 hit% and SM thr% have no one-pass value: "
          "kernel replay's own)")
    print(f"{'kernel':<14}" + "".join(f"{SHORT[m]:>12}" for m in SET))
    for kernel, row, reference in zip(kernels, replayed, one):
        cells = []
        for metric in SET:
            value = float(row[metric])
            if metric in reference and float(reference[metric]) != 0:
                cells.append(f"{value / float(reference[metric]):>11.3f}x")
            elif metric in reference:
                cells.append(f"{value:>8.0f}/0  ")
            else:
                cells.append(f"{value:>12.2f}")
        print(f"{kernel['label']:<14}" + "".join(cells))
    print(f"\n{failures} failure(s)")
    return failures


if __name__ == "__main__":
    sys.exit(main())
