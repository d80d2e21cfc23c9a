#!/bin/bash
# The tools host's mirror of meter-portal, as mirror-sync leaves it.
set -e
work=$(mktemp -d)
cd "$work"
git init -q -b main meter-portal && cd meter-portal
commit() {  # date author subject [tag]
  export GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" GIT_AUTHOR_NAME="${2% <*}" GIT_AUTHOR_EMAIL="${2#*<}"
  GIT_AUTHOR_EMAIL="${GIT_AUTHOR_EMAIL%>}"; export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
  echo "$3" >> CHANGES; git add CHANGES; git commit -qm "$3"
  if [ -n "$4" ]; then git tag -a "$4" -m "meter-portal $4"; fi
}
commit 2026-06-02T09:12:00 "Tomasz Wójcik <tomasz.wojcik@brightwater-energy.co.uk>" "Meter list: sort by install date" v2.1.0
commit 2026-06-09T15:40:00 "Hiroshi Tanaka <hiroshi.tanaka@brightwater-energy.co.uk>" "Readings chart: show gaps instead of joining across them"
commit 2026-06-16T11:05:00 "Adaeze Okafor <adaeze.okafor@brightwater-energy.co.uk>" "Tariff page: Economy 7 night window per region"
commit 2026-06-18T10:22:00 "Tomasz Wójcik <tomasz.wojcik@brightwater-energy.co.uk>" "Fix: smart meter serials with a leading zero were rejected" v2.2.0
commit 2026-07-01T14:47:00 "Hiroshi Tanaka <hiroshi.tanaka@brightwater-energy.co.uk>" "CSV export of half-hourly readings"
commit 2026-07-08T09:30:00 "Megan Rhys <megan.rhys@brightwater-energy.co.uk>" "Accessibility: labels on the reading entry form"
commit 2026-07-15T16:02:00 "Tomasz Wójcik <tomasz.wojcik@brightwater-energy.co.uk>" "Bump chart library to 4.4"
commit 2026-07-21T12:18:00 "Adaeze Okafor <adaeze.okafor@brightwater-energy.co.uk>" "Outage banner reads from the status feed" v2.3.0
commit 2026-08-04T10:41:00 "Megan Rhys <megan.rhys@brightwater-energy.co.uk>" "Welsh translations for the account pages"
commit 2026-08-12T13:55:00 "Hiroshi Tanaka <hiroshi.tanaka@brightwater-energy.co.uk>" "Fix: daylight-saving day showed 46 half-hours"
git branch release/2.4
commit 2026-08-19T08:50:00 "Tomasz Wójcik <tomasz.wojcik@brightwater-energy.co.uk>" "Direct debit date picker skips bank holidays"
commit 2026-08-27T17:12:00 "Adaeze Okafor <adaeze.okafor@brightwater-energy.co.uk>" "Meter swap wizard, behind the meter_swap flag"
mkdir -p /srv/mirrors
git clone -q --mirror . /srv/mirrors/meter-portal.git
rm -rf "$work"
