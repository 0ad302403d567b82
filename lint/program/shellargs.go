package program

import "strings"

// This file holds the questions the shell analysis asks of a command's
// arguments (a literal, a flag, the first file, the last URL) and of the
// names they give (a disk device, a rot13 table). They read values only.

// has reports whether args hold the literal s.
func has(args []value, s string) bool {
	for _, a := range args {
		if a.known && a.s == s {
			return true
		}
	}
	return false
}

// hasFlag reports whether a short-option cluster (-xd) holds c.
func hasFlag(args []value, c byte) bool {
	for _, a := range args {
		if a.known && len(a.s) > 1 && a.s[0] == '-' && a.s[1] != '-' && strings.IndexByte(a.s[1:], c) >= 0 {
			return true
		}
	}
	return false
}

// firstFile returns the first argument that is no option.
func firstFile(args []value) *value {
	for i := range args {
		if !(args[i].known && strings.HasPrefix(args[i].s, "-")) {
			return &args[i]
		}
	}
	return nil
}

// lastURL returns the last argument that is a URL.
func lastURL(args []value) string {
	u := ""
	for _, a := range args {
		if strings.Contains(a.s, "://") {
			u = a.s
		}
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	return u
}

// isDisk reports a block device.
func isDisk(p string) bool {
	for _, d := range []string{"/dev/sd", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/nvme", "/dev/mmcblk", "/dev/disk", "/dev/rdisk"} {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

// isRot13 reports tr sets that rotate by 13.
func isRot13(a, b string) bool {
	a, b = strings.Trim(a, `'"[]`), strings.Trim(b, `'"[]`)
	return strings.Contains(a, "a-z") && (strings.Contains(b, "n-za-m") || strings.Contains(b, "N-ZA-M")) ||
		strings.Contains(a, "A-Z") && strings.Contains(b, "N-ZA-M")
}

// optionIs reports whether the option opt is given the value val as the
// next argument.
func optionIs(args []value, opt, val string) bool {
	for i := 0; i+1 < len(args); i++ {
		if args[i].known && args[i].s == opt {
			return args[i+1].known && args[i+1].s == val
		}
	}
	return false
}
