# Facts for the 0001/0002 verdict: the strict-aliasing suite
# (unaligned-suite), the code generation table (codegen-table) and the
# real ARMv5 objects (objects-armv5).
(.stages["unaligned-suite"].results // []) as $a
| (.stages["codegen-table"].rows // []) as $c
| (.stages["objects-armv5"].summary // {}) as $o
| {
	show: (($a | length) > 0 or ($c | length) > 0),
	status: $status,
	rework_wrong: ([$a[] | select(.form == "rework") | .wrong] | add // 0),
	rework_probes: ([$a[] | select(.form == "rework") | .probes] | add // 0),
	packed_wrong: ([$a[] | select(.form == "packed") | .wrong] | add // 0),
	rework_calls: ([$c[] | select(.form == "rework" and .status == "ok") | .memcpy_calls] | add // 0),
	rework_rows: ([$c[] | select(.form == "rework" and .status == "ok")] | length),
	memcpy_calls: ([$c[] | select(.form == "memcpy" and .status == "ok") | .memcpy_calls] | add // 0),
	objects: ($o.built != null),
	objects_built: ($o.built // 0),
	objects_version: (.stages["objects-armv5"].version // "?"),
	objects_shipped: ($o.shipped_form // "?"),
	objects_identical: (($o.rework_text_differs // 1) == 0),
	objects_differ: $o.rework_text_differs,
	objects_added: ($o.objects_with_added_calls // "?"),
	calls_packed: ($o.memcpy_calls.packed // "?"),
	calls_memcpy: ($o.memcpy_calls.memcpy // "?"),
	calls_rework: ($o.memcpy_calls.rework // "?")
}
