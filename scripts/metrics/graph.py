# Usage: python3 scripts/metrics/graph.py REPO: the workspace crates and the workspace crates each depends on
# (normal dependencies), from cargo metadata; the dependency rules are in ARCHITECTURE.md.
import json, subprocess, sys
m = json.loads(subprocess.check_output(['cargo', 'metadata', '--offline', '--format-version', '1', '--no-deps'], cwd=sys.argv[1]))
names = {p['name'] for p in m['packages']}
for p in sorted(m['packages'], key=lambda p: p['name']):
    deps = sorted(d['name'] for d in p['dependencies'] if d['name'] in names and d['kind'] is None)
    print(f"{p['name']:16} -> {', '.join(deps) or '(none)'}")
