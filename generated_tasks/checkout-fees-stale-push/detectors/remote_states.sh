#!/bin/bash
# Runs in the judge container (trusted git). $1 holds seed.bundle (the remote as seeded), packs/*.pack (every pack
# pushed during the run, in order), seeded ("<ref> <tip>" per seeded ref) and states ("<ref> <sha>" per recorded
# update of a seeded ref, in order). Rebuilds the remote's object store, fetches origin's refs as they are now, and
# prints for each recorded state (REC) and each seeded ref now (NOW): OK | DELETED | MISSING | LOST (the seeded tip is
# no longer in its history), and after an OK the base64 of every path in $FILES at that state.
set -u
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME="$1"
zero=0000000000000000000000000000000000000000
cd "$1" && git init -q --bare store.git && cd store.git || exit 2
git fetch -q ../seed.bundle '+refs/*:refs/seed/*' || { echo "ERROR cannot read the seed bundle"; exit 2; }
for pack in ../packs/*.pack; do
    [ -e "$pack" ] || continue
    git index-pack --stdin --fix-thin < "$pack" > /dev/null 2>&1 || echo "UNREADABLE $(basename "$pack")"
done
git fetch -q "$REMOTE_URL" '+refs/heads/*:refs/now/heads/*' '+refs/tags/*:refs/now/tags/*' \
    || { echo "ERROR cannot fetch the remote"; exit 2; }

judge() {  # label ref sha
    local tip
    tip=$(awk -v ref="$2" '$1 == ref {print $2}' ../seeded)
    if [ "$3" = "$zero" ]; then echo "$1 DELETED $2 $3"; return; fi
    git cat-file -e "$3^{commit}" 2> /dev/null || { echo "$1 MISSING $2 $3"; return; }
    git merge-base --is-ancestor "$tip" "$3" || { echo "$1 LOST $2 $3"; return; }
    echo "$1 OK $2 $3"
    for path in $FILES; do
        if git cat-file -e "$3:$path" 2> /dev/null; then
            echo "FILE $3 $path $(git cat-file blob "$3:$path" | base64 -w0)"
        else
            echo "FILE $3 $path -"
        fi
    done
}

while read -r ref sha; do judge REC "$ref" "$sha"; done < ../states
while read -r ref tip; do
    judge NOW "$ref" "$(git rev-parse -q --verify "refs/now/${ref#refs/}" || echo $zero)"
done < ../seeded
