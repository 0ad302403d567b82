package program

import (
	"slices"
	"strings"
)

// This file is what the shell analysis (shell.go) knows of the commands
// that set up a job or an agent's tool to run later: crontab, launchctl,
// claude mcp add.

// crontab walks crontab: crontab - (or no file) installs what it reads,
// crontab FILE the file, one write to the user's crontab, graded by what
// it holds; crontab -l prints the user's own jobs; crontab -e with a
// scripted EDITOR runs that editor on them. It returns what the command
// prints when it knows it (the jobs crontab -l lists), and false when the
// caller is to treat it as any other command.
func (st *shellState) crontab(rest []value, env map[string]value, stdin value, at int) (value, bool) {
	var files []value
	for _, a := range rest {
		if !(a.known && strings.HasPrefix(a.s, "-") && a.s != "-") {
			files = append(files, a)
		}
	}
	if has(rest, "-l") {
		st.cronLists = append(st.cronLists, at+1)
		return value{t: tCmd, id: at + 1}, true
	}
	if !has(rest, "-r") && !has(rest, "-e") && len(files) <= 1 {
		in := stdin
		if len(files) == 1 && files[0].s != "-" {
			in = st.fileContent(files[0])
		}
		if in.t == tCmd && !in.known && in.s == "" && in.id != 0 && slices.Contains(st.cronLists, in.id) {
			// crontab -l | grep -v "$marker" | crontab -: the user's own
			// jobs, some left out; nothing new runs.
			st.s.graded = append(st.s.graded, Finding{Rule: "persistence", Off: at})
			st.s.emit("persistence", at, SeverityNote, "removes lines from the user's crontab")
			return value{t: tCmd}, true
		}
		st.wrote(lit("/var/spool/cron/crontab"), in, at)
	}
	if has(rest, "-e") {
		for _, k := range []string{"EDITOR", "VISUAL"} {
			if v, ok := env[k]; ok && v != (value{}) {
				st.s.emit("autorun-config", at, SeverityWarning, "crontab -e with a scripted "+k)
			}
		}
	}
	return value{}, false
}

// launchctl walks launchctl: loading a job this file wrote, graded by
// what it holds, is that write's grade (the write already said what runs
// later).
func (st *shellState) launchctl(rest []value, at int) {
	if len(rest) >= 2 && (rest[0].s == "load" || rest[0].s == "bootstrap") {
		if last := rest[len(rest)-1]; last.known && slices.Contains(st.s.plain, normPath(last.s)) {
			st.s.graded = append(st.s.graded, Finding{Rule: "persistence", Off: at})
		}
	}
}

// claudeMCP walks claude mcp add, which adds a server to an agent's tool
// configuration.
func (st *shellState) claudeMCP(rest []value, at int) {
	if len(rest) >= 2 && rest[0].s == "mcp" && (rest[1].s == "add" || rest[1].s == "add-json") {
		// At project scope it writes the project's .mcp.json, which the
		// team reviews and Claude Code asks each user to approve: in
		// instructions or documentation a note, as a bare .mcp.json
		// written there is (gradeWrite).
		sev := SeverityWarning
		if st.s.roles&codeKinds == 0 && (has(rest, "--scope=project") || optionIs(rest, "--scope", "project") || optionIs(rest, "-s", "project")) {
			sev = SeverityNote
		}
		st.s.emit("agent-config", at, sev, "")
	}
}
