#!/usr/bin/env python3
"""Functions of one binary that ran in callgrind profiles, hottest (most instructions) first: a link order.

    callgrind_order.py PROFILE... BINARY_NAME
"""
import collections
import re
import sys


def functions(paths, binary):
    cost = collections.Counter()
    for path in paths:
        objects, names = {}, {}
        current_object = current = None
        in_call = False

        def name(table, text):
            # Callgrind compresses repeated names: "(7) name" the first time, "(7)" after.
            match = re.match(r"\((\d+)\)(?: (.*))?$", text)
            if not match:
                return text
            if match.group(2) is not None:
                table[match.group(1)] = match.group(2)
            return table.get(match.group(1))

        with open(path, encoding="utf-8", errors="replace") as file:
            for line in file:
                line = line.rstrip("\n")
                if line.startswith("ob="):
                    current_object = name(objects, line[3:])
                elif line.startswith("cob="):
                    name(objects, line[4:])
                elif line.startswith("fn="):
                    current = (current_object, name(names, line[3:]))
                    cost[current] += 0
                    in_call = False
                elif line.startswith("cfn="):
                    name(names, line[4:])
                elif line.startswith("calls="):
                    in_call = True  # the next cost line is the call's inclusive cost, not this function's
                elif line[:1].isdigit() or line[:1] in "+-*":
                    if in_call:
                        in_call = False
                    elif current:
                        fields = line.split()
                        if len(fields) >= 2:
                            cost[current] += int(fields[1])
    ranked = sorted(cost.items(), key=lambda item: -item[1])
    return [fn for (obj, fn), _ in ranked if obj and obj.endswith("/" + binary) and fn and not fn.startswith("0x")]


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip())
    seen = set()
    for function in functions(sys.argv[1:-1], sys.argv[-1]):
        if function not in seen:
            seen.add(function)
            print(function)
