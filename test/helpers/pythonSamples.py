"""Runs Python code samples one after another in this one interpreter, as `python3 -c SAMPLE` would each.

The samples (a JSON list of source texts) are read from the file named by the first argument; a JSON
list of {"exitCode", "stdout", "stderr"}, one per sample in order, is printed. Each sample runs as
the main module in a namespace of its own; the modules it imports (requests) are loaded once for all.
"""

import contextlib
import io
import json
import sys
import traceback

with open(sys.argv[1], encoding="utf-8") as samples_file:
    samples = json.load(samples_file)

runs = []
for source in samples:
    stdout = io.StringIO()
    stderr = io.StringIO()
    exit_code = 0
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            exec(compile(source, "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
        except SystemExit as stop:
            if stop.code is not None and not isinstance(stop.code, int):
                print(stop.code, file=sys.stderr)
            exit_code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        except BaseException:
            traceback.print_exc()
            exit_code = 1
    runs.append({"exitCode": exit_code, "stdout": stdout.getvalue(), "stderr": stderr.getvalue()})

json.dump(runs, sys.stdout, ensure_ascii=False)
