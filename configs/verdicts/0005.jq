# Facts for the 0005 verdict: the unit test (syscall-args-loongarch) and the
# LoongArch build's objects (syscall-args-objects).
(.stages["syscall-args-loongarch"] // {}) as $u
| (.stages["syscall-args-objects"] // {}) as $o
| {
	show: ($u.result != null or $o.result != null),
	status: $status,
	unit: ($u.memcpy_calls != null),
	unpatched: $u.memcpy_calls.unpatched,
	patched: $u.memcpy_calls.patched,
	unit_result: $u.result,
	objects: ($o.totals != null),
	functions: $o.totals.functions,
	before: $o.totals.before.from_header,
	after: $o.totals.after.from_header,
	objects_result: $o.result,
	objects_reason: $o.reason
}
