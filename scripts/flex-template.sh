#!/usr/bin/env bash
# Builds and launches ingestbench's Dataflow Flex Templates.
#
#   scripts/flex-template.sh build  consumer|publisher  --project P --region R --bucket B [--repository REPO]
#                                    [--base-image IMAGE@sha256:DIGEST]
#   scripts/flex-template.sh run    consumer|publisher  --project P --region R --bucket B -- --param=value ...
#   add --dry-run to print the commands instead of running them
#
# build: packages the uber-jar (Maven profile "flex"), builds the image with Cloud Build from
#        <module>/flex-template/Dockerfile on Google's launcher base image pinned by digest (resolved
#        now unless --base-image gives one), tags it with the git commit, pushes it to Artifact
#        Registry, and writes the template spec to gs://B/templates/ingestbench-<module>.json.
# run:   gcloud dataflow flex-template run with the parameters after "--".
set -euo pipefail

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 2 ] || usage
action=$1; module=$2; shift 2
case "$module" in consumer|publisher) ;; *) echo "module must be consumer or publisher, not '$module'" >&2; exit 2 ;; esac

project=""; region=""; bucket=""; repository="ingestbench"; base_image=""; dry_run=false; params=()
while [ $# -gt 0 ]; do
  case "$1" in
    --project) project=$2; shift 2 ;;
    --region) region=$2; shift 2 ;;
    --bucket) bucket=$2; shift 2 ;;
    --repository) repository=$2; shift 2 ;;
    --base-image) base_image=$2; shift 2 ;;
    --dry-run) dry_run=true; shift ;;
    --) shift; params=("$@"); break ;;
    *) echo "unknown flag $1" >&2; usage ;;
  esac
done
[ -n "$project" ] || { echo "--project is required: templates are built in an explicit project" >&2; exit 2; }
[ -n "$region" ] || { echo "--region is required (e.g. us-central1)" >&2; exit 2; }
[ -n "$bucket" ] || { echo "--bucket is required: the template spec goes to gs://BUCKET/templates/" >&2; exit 2; }

case "$base_image" in ""|*@sha256:*) ;; *) echo "--base-image must name a digest (IMAGE@sha256:...), not a tag: '$base_image'" >&2; exit 2 ;; esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Images are tagged with the commit they were built from (-dirty when the work tree has changes),
# so a template spec names exactly the code it runs.
commit=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  commit="$commit-dirty"
fi
image="${region}-docker.pkg.dev/${project}/${repository}/ingestbench-${module}:${commit}"
launcher_base="gcr.io/dataflow-templates-base/java17-template-launcher-base"
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
    if [ -z "$base_image" ]; then
      if $dry_run; then
        base_image="$launcher_base@sha256:<its digest when built>"
        echo "+ gcloud container images describe $launcher_base:latest --format='value(image_summary.fully_qualified_digest)'"
      else
        base_image=$(gcloud container images describe "$launcher_base:latest" \
          --format='value(image_summary.fully_qualified_digest)')
        case "$base_image" in *@sha256:*) ;; *) echo "could not resolve $launcher_base:latest to a digest" >&2; exit 3 ;; esac
      fi
    fi
    echo "# base image: $base_image"
    # Cloud Build's --tag takes no build arguments: a generated config passes the digest.
    config="$root/$module/target/flex-cloudbuild.yaml"
    mkdir -p "$root/$module/target"
    printf 'steps:\n- name: gcr.io/cloud-builders/docker\n  args: [build, --build-arg, "BASE_IMAGE=%s", -t, "%s", .]\nimages: ["%s"]\n' \
      "$base_image" "$image" "$image" > "$config"
    run gcloud builds submit "$root/$module/flex-template" --project="$project" --region="$region" --config="$config"
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
