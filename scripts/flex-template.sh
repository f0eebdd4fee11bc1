#!/usr/bin/env bash
# Builds and launches ingestbench's Dataflow Flex Templates.
#
#   scripts/flex-template.sh build  consumer|publisher  --project P --region R --bucket B [--repository REPO]
#   scripts/flex-template.sh run    consumer|publisher  --project P --region R --bucket B -- --param=value ...
#   add --dry-run to print the commands instead of running them
#
# build: packages the uber-jar (Maven profile "flex"), builds the image with Cloud Build from
#        <module>/flex-template/Dockerfile into Artifact Registry, and writes the template spec to
#        gs://B/templates/ingestbench-<module>.json with <module>/flex-template/metadata.json.
# run:   gcloud dataflow flex-template run with the parameters after "--".
set -euo pipefail

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 2 ] || usage
action=$1; module=$2; shift 2
case "$module" in consumer|publisher) ;; *) echo "module must be consumer or publisher, not '$module'" >&2; exit 2 ;; esac

project=""; region=""; bucket=""; repository="ingestbench"; dry_run=false; params=()
while [ $# -gt 0 ]; do
  case "$1" in
    --project) project=$2; shift 2 ;;
    --region) region=$2; shift 2 ;;
    --bucket) bucket=$2; shift 2 ;;
    --repository) repository=$2; shift 2 ;;
    --dry-run) dry_run=true; shift ;;
    --) shift; params=("$@"); break ;;
    *) echo "unknown flag $1" >&2; usage ;;
  esac
done
[ -n "$project" ] || { echo "--project is required: templates are built in an explicit project" >&2; exit 2; }
[ -n "$region" ] || { echo "--region is required (e.g. us-central1)" >&2; exit 2; }
[ -n "$bucket" ] || { echo "--bucket is required: the template spec goes to gs://BUCKET/templates/" >&2; exit 2; }

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
image="${region}-docker.pkg.dev/${project}/${repository}/ingestbench-${module}:latest"
spec="gs://${bucket}/templates/ingestbench-${module}.json"

run() {
  printf '+ %q' "$1"; shift; printf ' %q' "$@"; printf '\n'
  if ! $dry_run; then "$@"; fi
}

case "$action" in
  build)
    run bash -c "cd '$root' && ./mvnw -q -B -Pflex -pl $module -am package -DskipTests"
    run cp "$root/$module/target/ingestbench-$module-flex.jar" "$root/$module/flex-template/"
    run gcloud artifacts repositories describe "$repository" --project="$project" --location="$region" \
      || run gcloud artifacts repositories create "$repository" --project="$project" --location="$region" --repository-format=docker
    run gcloud builds submit "$root/$module/flex-template" --project="$project" --region="$region" --tag="$image"
    run gcloud dataflow flex-template build "$spec" --project="$project" --image="$image" --sdk-language=JAVA \
      --metadata-file="$root/$module/flex-template/metadata.json"
    ;;
  run)
    # gcloud splits --parameters at commas; a value with commas (--createSubscriptions=a,b) needs
    # gcloud's own alternative delimiter, written ^~^ before the list (gcloud topic escaping).
    sep=","
    for p in "${params[@]}"; do case "$p" in *,*) sep="~" ;; esac; done
    if [ "$sep" = "~" ]; then
      for p in "${params[@]}"; do
        case "$p" in *~*) echo "flex-template: '$p' has both ',' and '~'; gcloud cannot take that in --parameters" >&2; exit 2 ;; esac
      done
    fi
    joined=$(IFS=$sep; echo "${params[*]#--}")
    if [ "$sep" != "," ] && [ -n "$joined" ]; then joined="^~^$joined"; fi
    run gcloud dataflow flex-template run "ingestbench-$module-$(date +%Y%m%d-%H%M%S)" \
      --project="$project" --region="$region" --template-file-gcs-location="$spec" \
      ${joined:+--parameters="$joined"}
    ;;
  *) usage ;;
esac
