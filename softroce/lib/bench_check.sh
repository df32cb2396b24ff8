# Sourced by run-launchers and run-mpi-cluster: checks the report of `remus bench lock` (and, for
# run-mpi-cluster, `remus bench index`) run as one process per node under a launcher (the JSON on
# node 0's standard output, which the launcher gathers from every process).
#   check_bench LABEL FILE PROCS   appends to the caller's array `problems` unless FILE holds exactly
#   one JSON report (node 0's) over PROCS nodes, run one process per node, whose operations are > 0,
#   whose merged latency histogram counts every one of them, and whose pairs by node show every one
#   of the PROCS nodes running lock/unlock pairs. FILE's standard-error neighbour is FILE minus
#   .json plus .err; a missing or empty FILE names it. Safe under `set -euo pipefail`: a report
#   without the fields it looks for is a problem in the list, not the end of the caller's script.
check_bench() {
  local label=$1 file=$2 procs=$3 lines ops count r
  [ -s "$file" ] || { problems+=("$label (bench lock): no report ($file; see ${file%.json}.err)"); return; }
  lines=$(grep -c '^{"tool":"remus","test":"lock"' "$file" || true)
  [ "$lines" -eq 1 ] || problems+=("$label (bench lock): $lines reports, expected 1 (node 0's)")
  grep -q "\"nodes\":$procs," "$file" || problems+=("$label (bench lock): the run is not over $procs nodes")
  grep -q "one process per node: $procs nodes" "$file" || problems+=("$label (bench lock): not one process per node")
  ops=$({ grep -o '"operations":[0-9]*' "$file" || true; } | head -n 1 | cut -d: -f2)
  count=$({ grep -o '"count":[0-9]*' "$file" || true; } | head -n 1 | cut -d: -f2)
  [ "${ops:-0}" -gt 0 ] || problems+=("$label (bench lock): no operations (${ops:-none})")
  [ "${ops:-x}" = "${count:-y}" ] || problems+=("$label (bench lock): ${ops:-no} operations but ${count:-no} latency samples")
  local pattern="pairs by node: [1-9][0-9]*"
  for ((r = 1; r < procs; r++)); do pattern+=", [1-9][0-9]*"; done
  grep -q "$pattern\"" "$file" || problems+=("$label (bench lock): not every one of the $procs nodes ran pairs")
}

# check_index_bench LABEL FILE PROCS OPS   the same for `remus bench index` run as one process per
#   node: appends to `problems` unless FILE holds exactly one JSON report (node 0's) with one client
#   per node over PROCS nodes, run one process per node, whose operations are PROCS x OPS (each
#   node's --num-ops), whose every get found its loaded key, and whose merged latency histogram counts
#   every operation.
check_index_bench() {
  local label=$1 file=$2 procs=$3 per=$4 lines ops count reads found
  [ -s "$file" ] || { problems+=("$label (bench index): no report ($file; see ${file%.json}.err)"); return; }
  lines=$(grep -c '^{"tool":"remus","test":"index"' "$file" || true)
  [ "$lines" -eq 1 ] || problems+=("$label (bench index): $lines reports, expected 1 (node 0's)")
  grep -q "\"clients\":$procs," "$file" || problems+=("$label (bench index): the run is not over $procs clients")
  grep -q "one process per node: $procs nodes" "$file" || problems+=("$label (bench index): not one process per node")
  ops=$({ grep -o '"ops":[0-9]*' "$file" || true; } | head -n 1 | cut -d: -f2)
  count=$({ grep -o '"count":[0-9]*' "$file" || true; } | head -n 1 | cut -d: -f2)
  reads=$({ grep -o '"reads":[0-9]*' "$file" || true; } | head -n 1 | cut -d: -f2)
  found=$({ grep -o '"found":[0-9]*' "$file" || true; } | head -n 1 | cut -d: -f2)
  [ "${ops:-0}" -gt 0 ] || problems+=("$label (bench index): no operations (${ops:-none})")
  [ "${ops:-x}" = "$((procs * per))" ] || problems+=("$label (bench index): ${ops:-no} operations, expected $((procs * per))")
  [ "${ops:-x}" = "${count:-y}" ] || problems+=("$label (bench index): ${ops:-no} operations but ${count:-no} latency samples")
  [ "${reads:-x}" = "${found:-y}" ] || problems+=("$label (bench index): ${found:-no} of ${reads:-no} gets found their key")
}
