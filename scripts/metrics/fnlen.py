# Usage: python3 scripts/metrics/fnlen.py REPO [N]: the N longest functions (default 12).
"""Longest Rust functions of a tree: (lines, file, name). Naive brace matching that skips
strings, chars and comments well enough for a ranking."""
import os, re, sys
root = sys.argv[1]
skip = ('target', 'fuzz', 'python', '.git')
out = []
fn_re = re.compile(r'^\s*(pub(\([a-z]+\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+"C"\s+)?fn\s+([A-Za-z0-9_]+)')
for dp, dn, fns in os.walk(root):
    dn[:] = [d for d in dn if d not in skip]
    for f in fns:
        if not f.endswith('.rs'): continue
        p = os.path.join(dp, f)
        lines = open(p, encoding='utf-8', errors='replace').read().split('\n')
        i = 0
        while i < len(lines):
            m = fn_re.match(lines[i])
            if not m:
                i += 1; continue
            name = m.group(7)
            depth = 0; started = False; j = i
            while j < len(lines):
                s = re.sub(r'//.*', '', lines[j])
                s = re.sub(r'"([^"\\]|\\.)*"', '""', s)
                s = re.sub(r"'([^'\\]|\\.)'", "''", s)
                for ch in s:
                    if ch == '{': depth += 1; started = True
                    elif ch == '}': depth -= 1
                if started and depth <= 0: break
                if not started and s.rstrip().endswith(';'): break
                j += 1
            if started:
                out.append((j - i + 1, os.path.relpath(p, root), name))
            i += 1
out.sort(reverse=True)
for n, p, name in out[:int(sys.argv[2]) if len(sys.argv) > 2 else 12]:
    print(f"{n:5} {p} {name}")
