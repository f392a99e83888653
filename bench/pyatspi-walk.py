"""The peer for snapshot timing: a plain pyatspi walk of one app, reading what a snapshot line needs
(name, role, states) for every element. Prints {"nodes": N, "median": ms} as JSON."""
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


def main():
    name, runs = sys.argv[1], int(sys.argv[2])
    desktop = pyatspi.Registry.getDesktop(0)
    app = next(a for a in desktop if a is not None and a.name == name)
    walk(app)  # warm up
    samples, nodes = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        nodes = walk(app)
        samples.append((time.perf_counter() - start) * 1000)
    print(json.dumps({"nodes": nodes, "median": statistics.median(samples)}))


main()
