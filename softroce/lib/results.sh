# Sourced by run-tests and run-cluster: reads one guest's results back from its job dir.
#   clear_results JOB_DIR   removes a previous run's results (before a guest starts).
#   check_results JOB_DIR LABEL GUEST_STATUS   prints a summary; returns 1 unless the guest
#   exited 0, its JUnit reports exist, at least one test ran, none failed or was skipped
#   (inside a guest the device exists, so a skipped device test is a broken test bed), and no
#   JVM crashed (an hs_err_pid*.log in the job dir's work/, where the guest runs its JVMs).
#   It also prints the guest's non-zero rxe0 counters (rxe-counters.txt, written by junit.sh).
clear_results() { # JOB_DIR: removes what a previous guest run left there
  rm -rf "$1/reports" "$1/work" "$1/junit.log" "$1/console.log" "$1/guest-exit" "$1/params" "$1/rxe-counters.txt"
}

attr_sum() { # ATTRIBUTE FILE...: the sum of ATTRIBUTE over the <testsuite> elements
  local name=$1; shift
  [ $# -gt 0 ] || { echo 0; return; }
  { grep -ho "<testsuite [^>]*" "$@" || true; } | { grep -o " $name=\"[0-9]*\"" || true; } | tr -dc '0-9\n' | awk '{s+=$1} END {print s+0}'
}

check_results() {
  local job=$1 label=$2 status=$3 reports crashes crash tests skipped failures errors problems=()
  reports=$(ls "$job"/reports/TEST-*.xml 2>/dev/null || true)
  tests=$(attr_sum tests $reports); skipped=$(attr_sum skipped $reports)
  failures=$(attr_sum failures $reports); errors=$(attr_sum errors $reports)
  crashes=$(ls "$job"/work/hs_err_pid*.log 2>/dev/null || true)
  [ "$status" -eq 0 ] || problems+=("guest exit status $status")
  [ -n "$reports" ] || problems+=("no JUnit report came back")
  [ "$tests" -gt 0 ] || problems+=("zero tests tagged $label ran")
  [ "$skipped" -eq 0 ] || problems+=("$skipped test(s) skipped inside the guest, where the device exists")
  [ "$failures" -eq 0 ] && [ "$errors" -eq 0 ] || problems+=("$failures failure(s), $errors error(s)")
  [ -z "$crashes" ] || problems+=("a JVM crashed: "$crashes)
  cat "$job/junit.log" 2>/dev/null || true
  echo "softroce: $label in $job: tests=$tests skipped=$skipped failures=$failures errors=$errors guest_exit=$status"
  [ ! -s "$job/rxe-counters.txt" ] \
    || echo "softroce: rxe0 counters after the run (non-zero): $(awk '$2 != 0 {printf "%s=%s ", $1, $2}' "$job/rxe-counters.txt")"
  if [ ${#problems[@]} -gt 0 ]; then
    local joined
    printf -v joined '%s; ' "${problems[@]}"
    echo "softroce: FAILED: ${joined%; }"
    echo "softroce: last lines of the console ($job/console.log):"
    tail -n 30 "$job/console.log" 2>/dev/null || true
    for crash in $crashes; do echo "softroce: $crash:"; head -n 25 "$crash"; done
    return 1
  fi
  echo "softroce: $label tests in $job: PASSED"
}
