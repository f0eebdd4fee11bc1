#!/usr/bin/env bash
# Deletes what scripts/gcp-setup.sh created, and only that: the resources it recorded (--record,
# default runs/gcp-created-PROJECT.txt): tables, then the dataset if it is empty, subscriptions, the
# topic. What exists without a record (made by hand, or before setup ran) is never touched.
# Idempotent: what is already gone is skipped and dropped from the record.
#
#   scripts/gcp-cleanup.sh --project P [--record FILE] [--dry-run]
#
# --dry-run prints every command without running it. There is no default project, on purpose.
set -euo pipefail

project=""; record=""; dry_run=false
usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --project) project=$2; shift 2 ;; --record) record=$2; shift 2 ;;
    --dry-run) dry_run=true; shift ;; -h|--help) usage ;;
    --topic|--subscriptions|--dataset)
      echo "gcp-cleanup: $1 is gone: cleanup deletes what gcp-setup.sh recorded it created (--record FILE)" >&2; exit 2 ;;
    *) echo "unknown flag $1" >&2; usage ;;
  esac
done
[ -n "$project" ] || { echo "gcp-cleanup: --project is required (no default, so nothing is deleted in the wrong project)" >&2; exit 2; }
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
record=${record:-"$root/runs/gcp-created-$project.txt"}
if [ ! -f "$record" ]; then
  echo "gcp-cleanup: no record of what gcp-setup.sh created for $project ($record): nothing to delete; resources made" \
    "another way are yours to delete by hand" >&2
  if $dry_run; then exit 0; else exit 2; fi
fi

run() { printf '+'; printf ' %q' "$@"; printf '\n'; if ! $dry_run; then "$@"; fi; }
gone() { if $dry_run; then return 1; fi; ! "$@" >/dev/null 2>&1; }
kept=()
# delete KIND NAME CHECK... -- DELETE...: skips what is gone, keeps in the record what could not be deleted.
delete() {
  local kind=$1 name=$2; shift 2
  local check=() ; while [ "$1" != "--" ]; do check+=("$1"); shift; done; shift
  if gone "${check[@]}"; then return 0; fi
  run "$@" || { echo "gcp-cleanup: could not delete $kind $name; it stays in $record" >&2; kept+=("$kind $name"); }
}

mapfile -t lines < "$record"
for kind in table dataset subscription topic; do
  for line in "${lines[@]}"; do
    [ "${line%% *}" = "$kind" ] || continue
    name=${line#* }
    case "$kind" in
      table) delete table "$name" bq --project_id="$project" show "$name" -- bq --project_id="$project" rm -f --table "$name" ;;
      # not -r: a table someone added to the dataset keeps it (and the dataset) alive
      dataset) delete dataset "$name" bq --project_id="$project" show --dataset "$name" -- bq --project_id="$project" rm -f --dataset "$name" ;;
      subscription) delete subscription "$name" gcloud pubsub subscriptions describe "$name" --project="$project" -- \
          gcloud pubsub subscriptions delete "$name" --project="$project" --quiet ;;
      topic) delete topic "$name" gcloud pubsub topics describe "$name" --project="$project" -- \
          gcloud pubsub topics delete "$name" --project="$project" --quiet ;;
    esac
  done
done
if ! $dry_run; then
  if [ ${#kept[@]} -eq 0 ]; then rm -f "$record"; else printf '%s\n' "${kept[@]}" > "$record"; fi
fi
echo "gcp-cleanup: done for project $project"
