#!/usr/bin/env bash
# Writes a synthetic WRITE_API_TIMELINE export (CSV, the view's columns) to stdout: MINUTES minutes of
# TABLES tables x 4 stream types, each ~100,000 rows a minute with 3% Gaussian noise, deterministic.
# The size test of docs/analysis.md: a day of 50 tables is 288,000 rows.
#
#   scripts/synthetic-timeline.sh [MINUTES=1440] [TABLES=50] > timeline.csv
set -euo pipefail
case "${1:-}" in -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
minutes=${1:-1440}; tables=${2:-50}
[[ "$minutes" =~ ^[1-9][0-9]*$ && "$tables" =~ ^[1-9][0-9]*$ ]] \
  || { echo "synthetic-timeline: MINUTES and TABLES must be whole numbers above 0 (got '$minutes' '$tables')" >&2; exit 2; }
[ "$minutes" -le 1440 ] || { echo "synthetic-timeline: MINUTES is at most 1440 (one day, 2026-02-12)" >&2; exit 2; }
awk -v minutes="$minutes" -v tables="$tables" 'BEGIN {
  srand(1)
  print "start_timestamp,project_id,project_number,dataset_id,table_id,stream_type,error_code,total_requests,total_rows,total_input_bytes"
  split("DEFAULT COMMITTED PENDING BUFFERED", types, " ")
  for (m = 0; m < minutes; m++) {
    ts = sprintf("2026-02-12 %02d:%02d:00", int(m / 60), m % 60)
    for (tb = 0; tb < tables; tb++) {
      for (s = 1; s <= 4; s++) {
        # Box-Muller: one standard normal from two uniforms
        g = sqrt(-2 * log(1 - rand())) * cos(6.283185307 * rand())
        rows = int(100000 * (1 + 0.03 * g))
        printf "%s,p,123,ds,table_%d,%s,OK,%d,%d,%d\n", ts, tb, types[s], int(rows / 500), rows, rows * 560
      }
    }
  }
}'
