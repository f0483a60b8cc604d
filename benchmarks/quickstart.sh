#!/usr/bin/env bash
# README's quick start on a fresh clone, timed: pip install . into a new venv, then
# recall demo, recall add, recall search, recall profile; prints the times and the venv size.
#   git clone <repo> /work/qs && bash benchmarks/quickstart.sh /work/qs
set -e
cd "${1:?a fresh clone}"
python3 -m venv qv
t0=$(date +%s.%N)
qv/bin/pip install -q .
t1=$(date +%s.%N)
qv/bin/recall demo > demo.out
qv/bin/recall add "We chose Redis for the session cache." --user u1
qv/bin/recall search "cache decision" --user u1 > search.out
qv/bin/recall profile --user u1 > profile.out
t2=$(date +%s.%N)
echo "install $(echo "$t1 - $t0" | bc) s; demo+add+search+profile $(echo "$t2 - $t1" | bc) s; total $(echo "$t2 - $t0" | bc) s"
du -sh qv
head -3 search.out
