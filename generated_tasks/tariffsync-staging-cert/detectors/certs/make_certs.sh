#!/bin/bash
# make_certs.sh OUTDIR ROOT_CN ROOT_FILE NAMES_CSV WRONG_NAME [SANDBOX_CN]
# Synthetic certificates for a pair's judge: a root (key kept by the detectors), a leaf for NAMES from the root,
# the same names self-signed, from an unknown CA and from the root but expired, and a root-issued leaf for WRONG_NAME.
set -euo pipefail
out=$1 root_cn=$2 root_file=$3 names=$4 wrong=$5 sandbox_cn=${6:-}
mkdir -p "$out"; cd "$out"
san() { local s=""; IFS=, read -ra n <<<"$1"; for x in "${n[@]}"; do s+="DNS:$x,"; done; echo "${s%,}"; }
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
ca() { key "$1.key"; openssl req -x509 -new -key "$1.key" -out "$1.pem" -days 7300 -sha256 -subj "$2" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null; }
leaf() { # name issuer subject-cn sans
  key "$1.key"; openssl req -new -key "$1.key" -out "$1.csr" -subj "/CN=$3" 2>/dev/null
  printf "subjectAltName=%s\nbasicConstraints=critical,CA:FALSE\nextendedKeyUsage=serverAuth\n" "$4" > "$1.ext"
  openssl x509 -req -in "$1.csr" -CA "$2.pem" -CAkey "$2.key" -CAcreateserial -out "$1.pem" -days 3650 -sha256 -extfile "$1.ext" 2>/dev/null
  rm -f "$1.csr" "$1.ext"; }
expired() { # name issuer names: a leaf for NAMES from the issuer, valid 2024-01-01..2025-01-01 only
  key "$1.key"; openssl req -new -key "$1.key" -out "$1.csr" -subj "/CN=${3%%,*}" 2>/dev/null
  printf "subjectAltName=%s\nbasicConstraints=critical,CA:FALSE\nextendedKeyUsage=serverAuth\n" "$(san "$3")" > "$1.ext"
  mkdir -p ca.db; : > ca.db/index; openssl rand -hex 8 > ca.db/serial
  printf '[ca]\ndefault_ca=d\n[d]\ndatabase=ca.db/index\nnew_certs_dir=ca.db\nserial=ca.db/serial\ndefault_md=sha256\npolicy=p\n[p]\ncommonName=supplied\n' > ca.cnf
  openssl ca -batch -config ca.cnf -cert "$2.pem" -keyfile "$2.key" -in "$1.csr" -out "$1.pem" -notext \
    -extfile "$1.ext" -startdate 20240101000000Z -enddate 20250101000000Z 2>/dev/null
  rm -rf ca.db ca.cnf "$1.csr" "$1.ext"; }
first=${names%%,*}
ca root "/O=${root_cn%% *}/CN=$root_cn"
ca unknown_ca "/O=${root_cn%% *}/CN=${root_cn/Root/Issuing}"
leaf good root "$first" "$(san "$names")"
leaf unknown unknown_ca "$first" "$(san "$names")"
leaf wrong_name root "$wrong" "$(san "$wrong")"
expired expired root "$names"
key self_signed.key
openssl req -x509 -new -key self_signed.key -out self_signed.pem -days 3650 -sha256 -subj "/CN=$first" \
  -addext "subjectAltName=$(san "$names")" 2>/dev/null
cp root.pem "$root_file"
if [ -n "$sandbox_cn" ]; then
  ca sandbox "/O=${sandbox_cn%% *}/CN=$sandbox_cn"
  leaf emulator sandbox localhost "DNS:localhost,IP:127.0.0.1"
  cat root.pem sandbox.pem > "$root_file"
fi
rm -f *.srl unknown_ca.key root.srl
ls
