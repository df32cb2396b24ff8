# Sourced by run-tests and run-cluster: compiles every module (main and test classes) and
# computes the class path the guest's JUnit console launcher runs on.
#   prepare_classpath LIB_DIR   sets JAVA, CLASSPATH, SCAN; copies the console launcher to LIB_DIR
# JUnit's own jars are left out of the dependency class path: the standalone launcher carries
# them, and a second copy of an engine makes the launcher refuse to start.
prepare_classpath() {
  local lib=$1 version jdk module deps entry
  version=$(sed -n 's:.*<junit.platform.version>\(.*\)</junit.platform.version>.*:\1:p' "$ROOT/pom.xml")
  [ -n "$version" ] || { echo "softroce: no junit.platform.version in pom.xml" >&2; return 1; }
  find "$ROOT" -path '*/target/softroce.classpath' -delete
  echo "softroce: compiling and resolving the class path (bin/mvn ${SOFTROCE_MVN_FLAGS:-} test-compile)" >&2
  (cd "$ROOT" && bin/mvn -q -B ${SOFTROCE_MVN_FLAGS:-} test-compile dependency:build-classpath dependency:copy \
      -Dmdep.outputFile=target/softroce.classpath \
      -DexcludeGroupIds=org.junit.jupiter,org.junit.platform,org.junit.vintage,org.opentest4j,org.apiguardian \
      -Dartifact="org.junit.platform:junit-platform-console-standalone:$version" -DoutputDirectory="$lib") >&2
  jdk=$("$ROOT/bin/find-jdk")
  JAVA="$jdk/bin/java"
  CLASSPATH="$lib/junit-platform-console-standalone-$version.jar"
  SCAN=""
  deps=""
  for entry in $(find "$ROOT" -path '*/target/softroce.classpath' -not -path "$ROOT/.softroce/*" | sort); do
    module=${entry%/target/softroce.classpath}
    [ ! -d "$module/target/test-classes" ] || { CLASSPATH+=":$module/target/test-classes"; SCAN+="${SCAN:+:}$module/target/test-classes"; }
    [ ! -d "$module/target/classes" ] || CLASSPATH+=":$module/target/classes"
    deps+=":$(cat "$entry")"
  done
  [ -n "$SCAN" ] || { echo "softroce: no module has test classes" >&2; return 1; }
  for entry in $(tr ':' '\n' <<<"$deps" | awk 'NF && !seen[$0]++'); do
    case ":$CLASSPATH:" in *":$entry:"*) ;; *) CLASSPATH+=":$entry" ;; esac
  done
}

# write_params FILE NAME=VALUE...: a file the guest script sources (values single-quoted).
write_params() {
  local file=$1 pair; shift
  : > "$file"
  for pair in "$@"; do
    local value=${pair#*=}
    printf "%s='%s'\n" "${pair%%=*}" "${value//\'/\'\\\'\'}" >> "$file"
  done
}
