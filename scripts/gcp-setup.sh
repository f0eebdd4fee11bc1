#!/usr/bin/env bash
# Creates what a GCP round needs, idempotently: a topic, N subscriptions, a dataset, the destination
# tables and their dead-letter tables. Anything that exists already is left as it is. What it creates
# is recorded (--record, default runs/gcp-created-PROJECT.txt) so gcp-cleanup.sh deletes only that.
#
#   scripts/gcp-setup.sh --project P [--region R] [--topic T] [--subscriptions a,b] [--dataset D]
#                        [--table T] [--row-format json-column|typed] [--tables N] [--record FILE] [--dry-run]
#
# --dry-run prints every command without running it. There is no default project, on purpose.
set -euo pipefail

project=""; region="us-central1"; topic="taxi-rides"; subscriptions="taxi-rides-a,taxi-rides-b"
dataset="ingestbench"; table="taxi_rides"; row_format="json-column"; tables=1; dry_run=false; record=""
usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --project) project=$2; shift 2 ;; --region) region=$2; shift 2 ;;
    --topic) topic=$2; shift 2 ;; --subscriptions) subscriptions=$2; shift 2 ;;
    --dataset) dataset=$2; shift 2 ;; --table) table=$2; shift 2 ;;
    --row-format) row_format=$2; shift 2 ;; --tables) tables=$2; shift 2 ;;
    --record) record=$2; shift 2 ;; --dry-run) dry_run=true; shift ;; -h|--help) usage ;;
    *) echo "unknown flag $1" >&2; usage ;;
  esac
done
[ -n "$project" ] || { echo "gcp-setup: --project is required (no default, so nothing lands in the wrong project)" >&2; exit 2; }
[[ "$tables" =~ ^[1-9][0-9]*$ ]] || { echo "gcp-setup: --tables must be 1 or more, not '$tables'" >&2; exit 2; }

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
record=${record:-"$root/runs/gcp-created-$project.txt"}
run() { printf '+'; printf ' %q' "$@"; printf '\n'; if ! $dry_run; then "$@"; fi; }
exists() { if $dry_run; then return 1; fi; "$@" >/dev/null 2>&1; }
# created KIND NAME: appended once a create succeeded, so cleanup deletes only what this script made.
created() { if $dry_run; then echo "# record in $record: $1 $2"; else mkdir -p "$(dirname "$record")"; echo "$1 $2" >> "$record"; fi; }

exists gcloud pubsub topics describe "$topic" --project="$project" \
  || { run gcloud pubsub topics create "$topic" --project="$project" && created topic "$topic"; }
IFS=, read -ra subs <<< "$subscriptions"
for s in "${subs[@]}"; do
  exists gcloud pubsub subscriptions describe "$s" --project="$project" \
    || { run gcloud pubsub subscriptions create "$s" --project="$project" --topic="$topic" --ack-deadline=60 \
         && created subscription "$s"; }
done
exists bq --project_id="$project" show --dataset "$project:$dataset" \
  || { run bq --project_id="$project" mk --dataset --location="$region" "$project:$dataset" && created dataset "$project:$dataset"; }

schema_dir=$(mktemp -d); trap 'rm -rf "$schema_dir"' EXIT
if $dry_run; then
  echo "# schemas from: $root/ingestbench schema --row-format $row_format | dead-letter"
else
  "$root/ingestbench" schema --row-format "$row_format" > "$schema_dir/rows.json"
  "$root/ingestbench" schema --row-format dead-letter > "$schema_dir/dlq.json"
fi
names=("$table")
if [ "$tables" -gt 1 ]; then names=(); for ((k = 0; k < tables; k++)); do names+=("${table}_$k"); done; fi
for t in "${names[@]}"; do
  exists bq --project_id="$project" show "$project:$dataset.$t" \
    || { run bq --project_id="$project" mk --table "$project:$dataset.$t" "$schema_dir/rows.json" \
         && created table "$project:$dataset.$t"; }
done
exists bq --project_id="$project" show "$project:$dataset.${table}_dlq" \
  || { run bq --project_id="$project" mk --table "$project:$dataset.${table}_dlq" "$schema_dir/dlq.json" \
       && created table "$project:$dataset.${table}_dlq"; }
echo "gcp-setup: done for project $project; what it created is recorded in $record"
