# SPDX-License-Identifier: MIT
"""exterr.parse() per parse, like parse_bench.c's time mode.

usage: python parse_bench.py ROUNDS ITERS FILE...
prints "python exterr NAME min=<ns> median=<ns>" per fixture.
"""
import os
import statistics
import sys
import timeit

import exterr


def main() -> None:
    rounds, iters = int(sys.argv[1]), int(sys.argv[2])
    for path in sys.argv[3:]:
        name = os.path.basename(os.path.dirname(path))
        with open(path, "rb") as f:
            data = f.read()
        exterr.parse(data)  # must parse; warms up
        t = timeit.repeat(lambda: exterr.parse(data), number=iters, repeat=rounds)
        per = sorted(x / iters * 1e9 for x in t)
        print(f"python exterr {name} min={per[0]:.1f} median={statistics.median(per):.1f}")


main()
