package program

import "strings"

// This file is what the flow analysis (flow.go) knows of the Windows
// programs a PowerShell script calls to make a later run: schtasks and reg,
// read as commands and graded as the cmdlets that do the same are
// (flowsinks.go).

// psLaterNative reports a Windows program a PowerShell script may call to
// make a later run: schtasks, reg.
func psLaterNative(w string) bool {
	switch strings.ToLower(strings.TrimSuffix(strings.ToLower(w), ".exe")) {
	case "schtasks", "reg":
		return true
	}
	return false
}

// psNative reads a call of schtasks or reg from PowerShell: its /switches
// and the values PowerShell gives its arguments. schtasks /create's /tr and
// reg add's /d of a key Windows runs (autorunKey) are graded by what they
// run later, as the batch analysis grades them.
func (f *flowState) psNative() {
	at := f.at(0)
	name := strings.TrimSuffix(strings.ToLower(f.peek(0).s), ".exe")
	start := f.peek(0).off
	f.pos++
	var args []value
	for f.pos < len(f.toks) && !endOfStatement(f.peek(0)) && !f.is(0, "|") && !f.is(0, ")") {
		if f.is(0, "/") && f.peek(1).kind == tokWord && f.peek(1).off == f.peek(0).off+1 {
			args = append(args, lit("/"+strings.ToLower(f.peek(1).s)))
			f.pos += 2
			continue
		}
		from := f.pos
		args = append(args, f.psArg())
		if f.pos == from {
			f.pos++
		}
	}
	raw := f.region[start:min(max(start, f.peek(0).off), len(f.region))] // the call as written, for a key not quoted
	opt := func(o string) (value, bool) {
		for i := 0; i+1 < len(args); i++ {
			if args[i].known && args[i].s == o {
				return args[i+1], true
			}
		}
		return value{}, false
	}
	switch name {
	case "schtasks":
		if has(args, "/create") {
			tr, _ := opt("/tr")
			f.gradeLater("persistence", "schtasks /create", tr, at)
		}
	case "reg":
		entry, _ := opt("/v")
		if len(args) > 0 && strings.EqualFold(args[0].s, "add") && autorunKey(raw, entry.s) {
			data, _ := opt("/d")
			f.gradeLater("persistence", "reg add", data, at)
		}
	}
}
