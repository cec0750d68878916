# Facts for the 0003 verdict: the user-space harness (usercopy-x86) and the
# throughput benchmark (usercopy-throughput).
(.stages["usercopy-x86"] // {}) as $u
| (.stages["usercopy-throughput"] // {}) as $b
| {
	show: ($u.result != null),
	na: ($u.result == "n/a"),
	reason: $u.reason,
	status: $status,
	pass: ($u.result == "pass"),
	result: $u.result,
	throughput: ($b.verdict // "The throughput benchmark did not run."),
	cpu: (if $u.cpu.fsrm then "FSRM" elif $u.cpu.erms then "ERMS" else "neither ERMS nor FSRM" end),
	fast_strings: (($u.cpu.fsrm // false) or ($u.cpu.erms // false))
}
