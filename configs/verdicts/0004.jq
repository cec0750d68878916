# Facts for the 0004 verdict: the user-space harness (clear-user-arm64), the
# loop placement in the arm64 build (layout-arm64): as built, and, when the
# build has 0004, the same tree's file with it reversed (the baseline);
# and the guest's pread() timing, a diagnostic of the arm64 boot's KTAP.
(.stages["clear-user-arm64"] // {}) as $c
| (.stages["layout-arm64"] // {}) as $l
| ([($l.layouts // [])[] | select(.what == "tree" and .bti == "n")] | first) as $t
| ([($l.layouts // [])[] | select(.what == "without" and .bti == "n")] | first) as $w
| {
	show: ($c.result != null or $l.result != null),
	status: $status,
	layout: ($t != null),
	version: $l.version,
	loop_offset: $t.loop_offset,
	loop_bytes: $t.loop_bytes,
	loop_nops: ($t.loop_nops // 0),
	text_align: $t.text_align,
	crossing: $t.crossing_placements,
	baseline: ($w != null),
	w_text_align: $w.text_align,
	w_loop_offset: $w.loop_offset,
	w_loop_bytes: $w.loop_bytes,
	w_loop_nops: ($w.loop_nops // 0),
	w_crossing: $w.crossing_placements,
	function_bytes: $t.function_bytes,
	words_differ: $l.text_words_differ,
	bti_unconditional: ($l.bti_changes_code == false),
	harness: $c.result,
	pread: (first((.stages["boot-arm64"] // {}) | .. | strings
		| capture("^pread_dev_zero_100k: (?<v>[0-9]+ calls, [0-9.]+ s)$").v) // "")
}
