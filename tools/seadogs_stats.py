#!/usr/bin/env python3
"""SeaDogs measurements from deckhand's own output (standard library only).

  wins FILE...   each FILE the output of `deckhand sim ... --json`: per seat,
                 the wins out of the games with a 95 % Wilson score interval
                 (files are added up seat by seat, so runs over several seed
                 ranges can be pooled).
  mix FILE       FILE a trace of `deckhand sim ... --trace FILE`: per game,
                 the mean number of attacks (Whirlpool attacks included),
                 sales, temple offerings, action cards drawn and played,
                 claims and calls, rounds and decisions, with a 95 %
                 interval of the mean
                 (normal approximation: mean +- 1.96 s / sqrt(n)).

Used for the tables of docs/seadogs.md; the commands are given there.
"""

import json
import math
import sys

Z = 1.959964  # the 97.5 % point of the normal distribution


def wilson(k, n):
    """95 % Wilson score interval of a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return (c - h, c + h)


def wins(paths):
    games, seats = 0, {}
    for path in paths:
        with open(path) as f:
            s = json.load(f)
        games += s["games"]
        for seat in s["seats"]:
            k = seat["seat"]
            bot, w = seat["bot"], seat["wins"]
            prev = seats.get(k, (bot, 0))
            seats[k] = (bot, prev[1] + w)
    print(f"{games} games")
    for k in sorted(seats):
        bot, w = seats[k]
        lo, hi = wilson(w, games)
        print(f"seat {k} ({bot}): {w} wins, {100 * w / games:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]")


EVENTS = [
    ("attacks", "attack"),
    ("sales", "sold"),
    ("temple offerings", "blessed"),
    ("action cards drawn", "action_drawn"),
    ("action cards played", "action_played"),
    ("claims", "claimed"),
    ("calls", ("called_true", "called_lie")),
]


def mix(path):
    per_game = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            g = r.get("game")
            counts = per_game.setdefault(g, {})
            if r.get("type") == "end":
                counts["rounds"] = r.get("rounds", 0)
                counts["decisions"] = r.get("steps", 0)
            if r.get("type") != "event":
                continue
            name = r.get("name")
            for label, names in EVENTS:
                if name == names or (isinstance(names, tuple) and name in names):
                    counts[label] = counts.get(label, 0) + 1
    n = len(per_game)
    print(f"{n} games; per game, mean [95 % interval, normal approximation]")
    for label in [e[0] for e in EVENTS] + ["rounds", "decisions"]:
        xs = [c.get(label, 0) for c in per_game.values()]
        m = sum(xs) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
        h = Z * sd / math.sqrt(n)
        print(f"{label}: {m:.2f} [{m - h:.2f}, {m + h:.2f}]")


def main(argv):
    if len(argv) >= 3 and argv[1] == "wins":
        wins(argv[2:])
    elif len(argv) == 3 and argv[1] == "mix":
        mix(argv[2])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
