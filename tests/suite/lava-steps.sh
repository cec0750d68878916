# shellcheck shell=bash
# Run a board job's test definition here, as LAVA's test shell would run it
# on the board, for the board job tests.  Source after tests/suite/test-lib.sh.
#
# LAVA's own pieces do the work: lava-test-case and lava-common-functions
# from the unpacked lava-dispatcher, run.sh laid out as lava_dispatcher's
# testdef.py writes it (the params, then "set -e", "set -x", the steps,
# between the STARTRUN and ENDRUN signals), and the TESTCASE signals
# turned into result records by lava_dispatcher's handle_testcase() and
# SignalMatch, as its test shell does.  What no board gives here: the
# kernel's console banner (written from the arguments) and LAVA's job
# verdict (pass when run.sh reached ENDRUN and exited 0), so that the log
# reads like one of a LAVA server.

# run_board_steps JOB DIR KERNEL_VERSION: run JOB's test definition in DIR
# (the definition's directory on the board); DIR/lava.log is the log.
run_board_steps() {
	local job=$1 dir=$2 version=$3 root=$TOP/build/unpacked/root
	local shell=$root/usr/lib/python3/dist-packages/lava_dispatcher/lava_test_shell
	mkdir -p "$dir/bin" "$dir/results" || return 1
	# LAVA puts the interpreter line in when it deploys the overlay.
	for f in lava-test-case lava-common-functions; do
		{ echo '#!/bin/sh'; cat "$shell/$f"; } >"$dir/bin/$f" && chmod +x "$dir/bin/$f" || return 1
	done
	PYTHONPATH=$root/usr/lib/python3/dist-packages:$TOP/build/unpacked/stub \
		/usr/bin/python3 - "$job" "$dir" "$version" <<'EOF'
import datetime, json, os, re, subprocess, sys
import yaml
from lava_dispatcher.actions.test.shell import handle_testcase
from lava_dispatcher.connection import SignalMatch

job_file, work, version = sys.argv[1:4]
with open(job_file) as f:
    job = yaml.safe_load(f)
test = next(a["test"] for a in job["actions"] if "test" in a)
definition = test["definitions"][0]
testdef = definition["repository"]
name = "0_" + definition["name"]

with open(os.path.join(work, "run.sh"), "w") as run:
    run.write("###default parameters from test definition###\n")
    for key, value in (testdef.get("params") or {}).items():
        run.write("%s='%s'\n" % (key, value or ""))
    run.write("######\nset -e\nset -x\nexport TESTRUN_ID=%s\ncd %s\n" % (name, work))
    run.write('set +x\necho "<LAVA_SIGNAL_STARTRUN $TESTRUN_ID 1>"\nset -x\n')
    for step in testdef["run"]["steps"]:
        run.write(step + "\n")
    run.write('set +x\necho "<LAVA_SIGNAL_ENDRUN $TESTRUN_ID 1>"\n')

env = dict(os.environ, LAVA_RESULT_DIR=os.path.join(work, "results"),
           PATH=os.path.join(work, "bin") + ":" + os.environ["PATH"])
proc = subprocess.run(["/bin/sh", "run.sh"], cwd=work, env=env,
                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
with open(os.path.join(work, "run.out"), "w") as f:
    f.write(proc.stdout)

def record(lvl, msg):
    dt = datetime.datetime.now().isoformat()
    return json.dumps({"dt": dt, "lvl": lvl, "msg": msg})

out = [record("target", "Linux version %s (ci@lab) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, "
              "GNU ld (GNU Binutils for Debian) 2.40) #1 SMP" % version)]
ended = False
for line in proc.stdout.splitlines():
    out.append(record("target", line))
    m = re.search(r"<LAVA_SIGNAL_(\S+) ([^>]+)>", line)
    if not m:
        continue
    if m.group(1) == "ENDRUN":
        ended = True
    if m.group(1) != "TESTCASE":
        continue
    res = SignalMatch().match(handle_testcase(m.group(2).split()), fixupdict={})
    data = {"definition": name, "case": res["test_case_id"], "result": res["result"]}
    if "measurement" in res:
        data["measurement"] = float(res["measurement"])
        if "units" in res:
            data["units"] = res["units"]
    out.append(record("results", data))
verdict = "pass" if proc.returncode == 0 and ended else "fail"
out.append(record("results", {"definition": "lava", "case": "job", "result": verdict}))
with open(os.path.join(work, "lava.log"), "w") as f:
    f.write("\n".join(out) + "\n")
EOF
}
