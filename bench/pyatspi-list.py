"""The peer for long lists: pyatspi over a list of many rows in one app. `walk` reads what a snapshot line
needs (name, role, states) for every element; `find NAME` walks depth first until an element has that name.
Prints {"nodes": N, "median": ms} as JSON."""
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


def main():
    app_name, mode, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    wanted = sys.argv[4] if len(sys.argv) > 4 else ""
    desktop = pyatspi.Registry.getDesktop(0)
    app = next(a for a in desktop if a is not None and a.name == app_name)
    samples, nodes = [], 0
    for _ in range(runs + 1):
        start = time.perf_counter()
        if mode == "walk":
            nodes = walk(app)
        else:
            seen = [0]
            if not find(app, wanted, seen):
                raise SystemExit(f"{wanted} not found")
            nodes = seen[0]
        samples.append((time.perf_counter() - start) * 1000)
    # The first run warms the app's accessible objects up, as the first of ours does.
    print(json.dumps({"nodes": nodes, "median": statistics.median(samples[1:])}))


main()
