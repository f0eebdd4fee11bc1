#!/usr/bin/env bash
# Builds and launches ingestbench's Dataflow Flex Templates.
#
#   scripts/flex-template.sh build  consumer|publisher  --project P --region R --bucket B [--repository REPO]
#                                    [--base-image IMAGE@sha256:DIGEST]
#   scripts/flex-template.sh run    consumer|publisher  --project P --region R --bucket B -- --param=value ...
#   scripts/flex-template.sh pin-base-image --project P
#   add --dry-run to print the commands instead of running them
#
# build: packages the uber-jar (Maven profile "flex"), builds the image with Cloud Build from
#        <module>/flex-template/Dockerfile on Google's launcher base image by the digest pinned in
#        scripts/flex-template.base-image (or --base-image), tags it with the git commit, pushes it to
#        Artifact Registry, and writes the template spec to gs://B/templates/ingestbench-<module>.json.
# run:   gcloud dataflow flex-template run with the parameters after "--".
# pin-base-image: resolves the launcher base image's current digest and writes it into
#        scripts/flex-template.base-image; commit that file so every build uses the same base.
set -euo pipefail

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
action=$1; shift
case "$action" in
  build|run) [ $# -ge 1 ] || usage; module=$1; shift
    case "$module" in consumer|publisher) ;; *) echo "module must be consumer or publisher, not '$module'" >&2; exit 2 ;; esac ;;
  pin-base-image) module="" ;;
  *) usage ;;
esac

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

# Every value below reaches a shell line, a YAML file or an image path: each must match Google's
# naming rule for what it names (the same rules as ingestbench run --target dataflow).
check() { # check FLAG VALUE REGEX RULE
  [[ "$2" =~ $3 ]] || { echo "$1 '$2' is not valid: $4" >&2; exit 2; }
}
check --project "$project" '^[a-z][-a-z0-9]{4,28}[a-z0-9]$' \
  "a project ID is 6-30 lowercase letters, digits and hyphens, starting with a letter"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
launcher_base="gcr.io/dataflow-templates-base/java17-template-launcher-base"
pin_file="$root/scripts/flex-template.base-image"
digest_re='^[a-z0-9][-a-z0-9._/]*@sha256:[0-9a-f]{64}$'

if [ "$action" = pin-base-image ]; then
  echo "+ gcloud container images describe $launcher_base:latest --project=$project --format='value(image_summary.fully_qualified_digest)'"
  if $dry_run; then exit 0; fi
  pinned=$(gcloud container images describe "$launcher_base:latest" --project="$project" \
    --format='value(image_summary.fully_qualified_digest)')
  check "resolved image" "$pinned" "$digest_re" "gcloud did not answer IMAGE@sha256:DIGEST"
  { grep '^#' "$pin_file"; echo "$pinned"; } > "$pin_file.tmp" && mv "$pin_file.tmp" "$pin_file"
  echo "pinned $pinned in scripts/flex-template.base-image: commit it"
  exit 0
fi

[ -n "$region" ] || { echo "--region is required (e.g. us-central1)" >&2; exit 2; }
[ -n "$bucket" ] || { echo "--bucket is required: the template spec goes to gs://BUCKET/templates/" >&2; exit 2; }
check --region "$region" '^[a-z]+-[a-z]+[0-9]{1,2}$' "a region looks like us-central1"
check --bucket "$bucket" '^[a-z0-9][-a-z0-9_.]{1,220}[a-z0-9]$' \
  "a bucket name is lowercase letters, digits, '-', '_' and '.', without gs://"
check --repository "$repository" '^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$' \
  "an Artifact Registry repository is lowercase letters, digits and hyphens"
if [ -n "$base_image" ]; then
  check --base-image "$base_image" "$digest_re" "it must name a digest (IMAGE@sha256:<64 hex>), not a tag"
fi
if [ "$action" = build ] && [ -z "$base_image" ]; then
  base_image=$(grep -v "^#" "$pin_file" | tail -1 || true)
  if ! [[ "$base_image" =~ $digest_re ]]; then
    if $dry_run; then
      base_image="$launcher_base@sha256:<pinned digest>"
      echo "# scripts/flex-template.base-image pins no digest yet: a build without --dry-run refuses"
    else
      echo "scripts/flex-template.base-image pins no digest yet: run" \
        "scripts/flex-template.sh pin-base-image --project $project and commit the file," \
        "or pass --base-image IMAGE@sha256:DIGEST" >&2
      exit 2
    fi
  fi
fi
[ "$action" != build ] || echo "# base image: $base_image"
# Images are tagged with the commit they were built from (-dirty when the work tree has changes),
# so a template spec names exactly the code it runs.
commit=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  commit="$commit-dirty"
fi
image="${region}-docker.pkg.dev/${project}/${repository}/ingestbench-${module}:${commit}"
spec="gs://${bucket}/templates/ingestbench-${module}.json"

run() {
  printf '+ %q' "$1"; printf ' %q' "${@:2}"; printf '\n'
  if ! $dry_run; then "$@"; fi
}

# YAML single-quoted scalar: the only escape is '' for '.
yaml_quote() { local v=${1//\'/\'\'}; printf "'%s'" "$v"; }

case "$action" in
  build)
    run bash -c "cd '$root' && ./mvnw -q -B -Pflex -pl $module -am package -DskipTests"
    run cp "$root/$module/target/ingestbench-$module-flex.jar" "$root/$module/flex-template/"
    run gcloud artifacts repositories describe "$repository" --project="$project" --location="$region" \
      || run gcloud artifacts repositories create "$repository" --project="$project" --location="$region" --repository-format=docker
    # Cloud Build's --tag takes no build arguments: a generated config passes the digest.
    config="$root/$module/target/flex-cloudbuild.yaml"
    mkdir -p "$root/$module/target"
    {
      echo "steps:"
      echo "- name: gcr.io/cloud-builders/docker"
      echo "  args: [build, --build-arg, $(yaml_quote "BASE_IMAGE=$base_image"), -t, $(yaml_quote "$image"), .]"
      echo "images: [$(yaml_quote "$image")]"
    } > "$config"
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
