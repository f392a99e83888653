"""The peer for snapshot timing: a plain pyatspi walk of one app, reading what a snapshot line needs
(name, role, states) for every element; or, given a name, a depth-first search for the first element of that
name. Prints {"nodes": N, "median": ms} as JSON (N: the elements walked, or looked at until the match)."""
import json
import statistics
import sys
import time

import pyatspi


def walk(accessible):
    count = 1
    accessible.name
    accessible.getRole()
    accessible.getState()
    for child in accessible:
        if child is not None:
            count += walk(child)
    return count


def find(accessible, name, seen):
    seen[0] += 1
    if accessible.name == name:
        return True
    return any(child is not None and find(child, name, seen) for child in accessible)


def measure(app, wanted):
    if wanted is None:
        return walk(app)
    seen = [0]
    if not find(app, wanted, seen):
        raise SystemExit(f"{wanted} not found")
    return seen[0]


def main():
    name, runs = sys.argv[1], int(sys.argv[2])
    wanted = sys.argv[3] if len(sys.argv) > 3 else None
    desktop = pyatspi.Registry.getDesktop(0)
    app = next(a for a in desktop if a is not None and a.name == name)
    measure(app, wanted)  # warm up: the app makes its objects, as for our first call
    samples, nodes = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        nodes = measure(app, wanted)
        samples.append((time.perf_counter() - start) * 1000)
    print(json.dumps({"nodes": nodes, "median": statistics.median(samples)}))


main()
