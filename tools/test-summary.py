#!/usr/bin/env python3
"""Prints "N passed, N failed, N skipped" from meson's JSON test logs.

Usage: test-summary.py [LABEL=]TESTLOG.json ...  (one line each; missing logs
are left out). Expected failures count as passed; timeouts, errors and
unexpected passes as failed.
"""
import json
import os
import sys

for arg in sys.argv[1:]:
    label, _, path = arg.rpartition("=")
    if not os.path.exists(path):
        continue
    passed = failed = skipped = 0
    for line in open(path):
        result = json.loads(line).get("result", "ERROR")
        if result in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif result == "SKIP":
            skipped += 1
        else:
            failed += 1
    prefix = f"{label}: " if label else ""
    print(f"{prefix}{passed} passed, {failed} failed, {skipped} skipped")
