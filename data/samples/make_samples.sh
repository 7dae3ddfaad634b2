#!/usr/bin/env bash
# Makes data/samples/: genuine outputs of fio, sysbench and bonnie++ run on this machine's disk.
# Small sizes and short runtimes: these show the formats and a little run-to-run spread, not the
# performance of any cloud volume. Run from data/samples/ as root (bonnie++ wants -u root).
# Usage: bash make_samples.sh [WORKDIR]   (WORKDIR default: a temp dir on the current disk)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-$(mktemp -d -p /var/tmp ebsstats-samples.XXXX)}
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

# fio: three repetitions each of 4k random read/write and 1M sequential read, JSON (fio 3.x)
mkdir -p "$here/fio"
for rep in 0 1 2; do
  for job in randread:4k randwrite:4k read:1M; do
    rw=${job%%:*}; bs=${job##*:}
    fio --name="${rw}_${bs}" --directory="$work" --ioengine=libaio --direct=1 --rw="$rw" \
        --bs="$bs" --size=32m --iodepth=8 --runtime=2 --time_based \
        --output-format=json > "$here/fio/${rw}_${bs}_rep${rep}.json"
  done
done
# a per-second averaged log pair with its JSON (for the series frame)
mkdir -p "$here/fio/logs"
fio --name=randwrite_log --directory="$work" --ioengine=libaio --direct=1 --rw=randwrite \
    --bs=4k --size=32m --iodepth=4 --runtime=4 --time_based \
    --write_bw_log="$here/fio/logs/randwrite_log" --write_iops_log="$here/fio/logs/randwrite_log" \
    --write_lat_log="$here/fio/logs/randwrite_log" --log_avg_msec=500 \
    --output-format=json > "$here/fio/logs/randwrite_log.json"

# sysbench 1.0 fileio: prepare (the first-write pass), then rndrd/rndwr runs, then cleanup
mkdir -p "$here/sysbench"
(cd "$work" && sysbench fileio --file-total-size=64M --file-num=4 prepare) \
    > "$here/sysbench/fileio_prepare.txt"
for rep in 0 1 2; do
  for mode in rndrd rndwr; do
    (cd "$work" && sysbench fileio --file-total-size=64M --file-num=4 --file-test-mode=$mode \
        --file-extra-flags=direct --time=2 --threads=2 run) \
        > "$here/sysbench/fileio_${mode}_rep${rep}.txt"
  done
done
(cd "$work" && sysbench fileio --file-total-size=64M --file-num=4 cleanup) > /dev/null

# bonnie++ 2.00a: three runs in one CSV (-x 3), 512 MiB file, no per-char tests
mkdir -p "$here/bonnie"
bonnie++ -d "$work" -u root -r 256 -s 512 -n 0 -f -q -x 3 -m samplehost \
    > "$here/bonnie/bonnie_x3.csv" 2> /dev/null

cat > "$here/meta.yaml" <<META
host: ebsstats-dev
config: local-disk
volume_type: local
region: none
synthetic: false
notes: genuine tool outputs made by data/samples/make_samples.sh on a development machine
META
echo "samples written to $here"
