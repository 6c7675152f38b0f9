"""Cuts OPENGPA_PM_SAMPLES_CSV's dump down to what studying the attribution of long kernels needs: the PM samples,
copies and memsets within MARGIN µs of each launch of MIN µs or longer in the sampled profile, and every launch row
overlapping those windows (their spans and indices, to be matched with the exact mode's rows by index).
  raw_window.py RAW.csv SAMPLED.csv OUT.csv [MIN_US] [MARGIN_US]"""
import bisect
import csv
import sys


def main():
    raw, sampled, out = sys.argv[1:4]
    min_ns = float(sys.argv[4] if len(sys.argv) > 4 else 150) * 1000
    margin = float(sys.argv[5] if len(sys.argv) > 5 else 300) * 1000
    with open(sampled) as f:
        launches = [r for r in csv.DictReader(line for line in f if not line.startswith("#")) if r.get("start_ns")]
    windows = sorted((int(r["start_ns"]) - margin, int(r["end_ns"]) + margin) for r in launches
                     if int(r["end_ns"]) - int(r["start_ns"]) >= min_ns)
    starts = [w[0] for w in windows]

    def inside(start, end):
        i = bisect.bisect_right(starts, end) - 1
        while i >= 0 and windows[i][1] >= start - 10e6:
            if windows[i][0] <= end and windows[i][1] >= start:
                return True
            i -= 1
        return False

    kept = 0
    with open(out, "w") as f:
        f.write("kind,gpu_or_queue,start_ns,end_ns,values\n")
        with open(raw) as r:
            next(r)
            for line in r:
                fields = line.split(",", 4)
                if inside(int(fields[2]), int(fields[3])):
                    f.write(line)
                    kept += 1
        for row in launches:
            start, end = int(row["start_ns"]), int(row["end_ns"])
            if inside(start, end):
                f.write(f"launch,{row['pid']},{start},{end},{row['index']},{row['kernel']}\n")
                kept += 1
    print(f"raw_window: {len(windows)} long launches, {kept} lines kept")


if __name__ == "__main__":
    main()
