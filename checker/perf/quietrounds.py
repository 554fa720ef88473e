"""Quiet rounds (played as `simulate` plays them without --log): their CPU time, a profile, and
a digest of their figures to compare two trees' rounds (the same digest: the same rounds).

    python -m checker.perf.quietrounds                 # CPU seconds of 200 classic rounds
    python -m checker.perf.quietrounds --profile 40    # and the 40 costliest calls
    python -m checker.perf.quietrounds --digest        # figures of 300 rounds per ruleset
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import time

from checker.play.simulation import round_seeds, run_job

DIGEST_RULESETS = ("classic", "erqiwang", "multideck", "shuangsheng")


def play(ruleset: str, kind: str, seeds: list[int], first: int, count: int) -> None:
    """Play rounds first..first+count-1 of a run without a log."""
    for i in range(first, first + count):
        run_job((ruleset, kind, i, seeds[i]), log=False)


def cpu_seconds(rounds: int, repeats: int, seed: int = 1) -> list[float]:
    """Return the CPU seconds of each of `repeats` passes over the same classic random rounds
    (after 20 warm-up rounds)."""
    seeds = round_seeds(seed, rounds + 20)
    play("classic", "random", seeds, 0, 20)
    out = []
    for _ in range(repeats):
        start = time.process_time()
        play("classic", "random", seeds, 20, rounds)
        out.append(time.process_time() - start)
    return out


def digest(rounds: int, seed: int = 7) -> str:
    """Return a hash of every figure of `rounds` quiet random rounds per ruleset."""
    h = hashlib.sha256()
    seeds = round_seeds(seed, rounds)
    for name in DIGEST_RULESETS:
        for i in range(rounds):
            figures, _ = run_job((name, "random", i, seeds[i]), log=False)
            h.update(json.dumps(figures, sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()


def main() -> None:
    """Time, profile or digest quiet rounds as the arguments ask."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--profile", type=int, default=0, metavar="TOP")
    parser.add_argument("--digest", action="store_true")
    args = parser.parse_args()
    if args.digest:
        print(digest(300))
        return
    times = sorted(cpu_seconds(args.rounds, args.repeats))
    print(f"{args.rounds} rounds: min {times[0]:.4f} s, median {times[len(times) // 2]:.4f} s")
    if args.profile:
        seeds = round_seeds(1, args.rounds + 20)
        profile = cProfile.Profile()
        profile.runcall(play, "classic", "random", seeds, 20, args.rounds)
        pstats.Stats(profile).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
