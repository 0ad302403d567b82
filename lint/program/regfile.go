package program

import (
	"encoding/hex"
	"strconv"
	"strings"
	"unicode/utf16"
)

// This file is the analysis of Windows registry files (.reg, what regedit
// and reg import merge into the registry): a value set under a key Windows
// runs (autorunKey: Run, RunOnce, Winlogon, Image File Execution Options,
// the logon script) is graded by the command it holds, as a batch file's
// reg add is: a plain program is a note, anything else (a download tool, a
// URL, a shell string, PowerShell -Command) a warning. Strings are read with
// their escapes, and hex(1)/hex(2) values (REG_SZ and REG_EXPAND_SZ written
// as UTF-16 bytes, regedit's export of a path with %VAR%) decoded.

// regRegion analyses one registry file.
func (s *scan) regRegion(r region) {
	key := ""
	text := r.text
	for i := 0; i < len(text); {
		start := i
		var line strings.Builder
		// A value written in hex continues on the next line after a final \.
		for first := true; i < len(text); first = false {
			j := strings.IndexByte(text[i:], '\n')
			end := len(text)
			if j >= 0 {
				end = i + j
			}
			l := strings.TrimRight(text[i:end], "\r \t")
			i = end + 1
			if strings.HasSuffix(l, `\`) && (!first || strings.Contains(l, "=hex")) && line.Len() < maxValue {
				line.WriteString(strings.TrimSpace(strings.TrimSuffix(l, `\`)))
				continue
			}
			line.WriteString(strings.TrimSpace(l))
			break
		}
		l := line.String()
		switch {
		case strings.HasPrefix(l, "[-"):
			key = "" // a key deleted
		case strings.HasPrefix(l, "["):
			key = strings.TrimSuffix(strings.TrimPrefix(l, "["), "]")
		case key != "" && (strings.HasPrefix(l, `"`) || strings.HasPrefix(l, "@=")):
			name, data, ok := regValue(l)
			if ok && securityOff(key, name, data) {
				s.emit("security-off", r.off+start, SeverityWarning, "a .reg file sets "+name+": switches a protection off")
			}
			if ok && autorunKey(key, name) {
				s.gradeRegValue(key, data, r.off+start)
			}
		}
	}
}

// regValue reads a line "name"=data (or @=data, the key's default): the
// name, and the data as a string when it is one (a quoted string, hex(1)
// or hex(2)) or a dword's number in decimal; false for binary data or a
// line it cannot read.
func regValue(l string) (name, data string, ok bool) {
	rest := ""
	if strings.HasPrefix(l, "@=") {
		rest = l[2:]
	} else {
		n, after, ok := regString(l)
		if !ok || !strings.HasPrefix(after, "=") {
			return "", "", false
		}
		name, rest = n, after[1:]
	}
	switch {
	case strings.HasPrefix(rest, `"`):
		d, _, ok := regString(rest)
		return name, d, ok
	case strings.HasPrefix(rest, "dword:"):
		n, err := strconv.ParseUint(strings.TrimSpace(rest[len("dword:"):]), 16, 32)
		return name, strconv.FormatUint(n, 10), err == nil
	case strings.HasPrefix(rest, "hex(1):"), strings.HasPrefix(rest, "hex(2):"):
		b, err := hex.DecodeString(strings.NewReplacer(",", "", " ", "").Replace(rest[len("hex(2):"):]))
		if err != nil || len(b)%2 != 0 {
			return name, "", false
		}
		u := make([]uint16, len(b)/2)
		for k := range u {
			u[k] = uint16(b[2*k]) | uint16(b[2*k+1])<<8
		}
		return name, strings.TrimRight(string(utf16.Decode(u)), "\x00"), true
	}
	return name, "", false
}

// regString reads a quoted string of a registry file (\\ and \" escaped)
// at the start of l, and returns it and what follows it.
func regString(l string) (string, string, bool) {
	var b strings.Builder
	for k := 1; k < len(l); k++ {
		switch c := l[k]; {
		case c == '\\' && k+1 < len(l):
			k++
			b.WriteByte(l[k])
		case c == '"':
			return b.String(), l[k+1:], true
		default:
			b.WriteByte(c)
		}
	}
	return "", "", false
}

// gradeRegValue grades what a registry file's autorun value runs: a plain
// program is a note, anything else a warning.
func (s *scan) gradeRegValue(key, data string, at int) {
	if strings.TrimSpace(data) == "" || plainCommand(lit(data)) {
		s.emit("persistence", at, SeverityNote, "")
		return
	}
	if i := indexFold(key, `\CurrentVersion\`); i >= 0 {
		key = "…" + key[i:]
	}
	s.emit("persistence", at, SeverityWarning, "a .reg file sets "+key+": what it runs later is fetched, decoded, hidden or not seen: "+excerptOf(data))
}
