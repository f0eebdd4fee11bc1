#!/usr/bin/env bash
# Deletes what scripts/gcp-setup.sh created: subscriptions, topic, and the dataset with its tables.
# Idempotent: what is already gone is skipped.
#
#   scripts/gcp-cleanup.sh --project P [--topic T] [--subscriptions a,b] [--dataset D] [--dry-run]
#
# --dry-run prints every command without running it. There is no default project, on purpose.
set -euo pipefail

project=""; topic="taxi-rides"; subscriptions="taxi-rides-a,taxi-rides-b"; dataset="ingestbench"; dry_run=false
usage() { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --project) project=$2; shift 2 ;; --topic) topic=$2; shift 2 ;;
    --subscriptions) subscriptions=$2; shift 2 ;; --dataset) dataset=$2; shift 2 ;;
    --dry-run) dry_run=true; shift ;; -h|--help) usage ;;
    *) echo "unknown flag $1" >&2; usage ;;
  esac
done
[ -n "$project" ] || { echo "gcp-cleanup: --project is required (no default, so nothing is deleted in the wrong project)" >&2; exit 2; }

run() { printf '+'; printf ' %q' "$@"; printf '\n'; if ! $dry_run; then "$@"; fi; }
gone() { if $dry_run; then return 1; fi; ! "$@" >/dev/null 2>&1; }

IFS=, read -ra subs <<< "$subscriptions"
for s in "${subs[@]}"; do
  gone gcloud pubsub subscriptions describe "$s" --project="$project" \
    || run gcloud pubsub subscriptions delete "$s" --project="$project" --quiet
done
gone gcloud pubsub topics describe "$topic" --project="$project" \
  || run gcloud pubsub topics delete "$topic" --project="$project" --quiet
gone bq --project_id="$project" show --dataset "$project:$dataset" \
  || run bq --project_id="$project" rm -r -f --dataset "$project:$dataset"
echo "gcp-cleanup: done for project $project"
